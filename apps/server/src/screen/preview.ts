import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import express from 'express';
import type { Request, Response, Router } from 'express';
import type { Clock, Store } from '@galley/store';
import { maybeAuth } from '../auth/context.js';
import type { AuthContext } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { problemOf } from '../http/problem.js';
import { html } from './html.js';
import { ID_PATTERN, sameToken } from './security.js';

/** How long a preview pass lives: the editor posts its frame again well before (every ~10 min). */
export const PREVIEW_PASS_TTL_SECONDS = 15 * 60;

/**
 * A preview's pass: which screen session may read which project's saved files through the
 * preview routes, until when. The preview document is sandboxed with `allow-same-origin` (the
 * screen's script reads its DOM; no script of the page runs), so its requests for the page's
 * style sheets and images carry the session cookie: a file is served only to the very session
 * the pass was issued to (its stored key is signed in), while it lasts and while its account
 * can open the project. A pass alone, a pass of another session, or one past its 15 minutes
 * opens nothing. It is signed with GALLEY_PREVIEW_SECRET, or a random key of this process when
 * that is not set (then, behind several processes, route a person's requests to one of them).
 */
export class PreviewPasses {
  readonly #key: Uint8Array;

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds: number = PREVIEW_PASS_TTL_SECONDS,
    secret: string | null = null,
  ) {
    this.#key = secret === null ? randomBytes(32) : new TextEncoder().encode(secret);
  }

  /** A pass for the session whose stored key is `sessionKey` (`SessionAuth.sessionKey`). */
  issue(sessionKey: string, projectId: string): string {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + this.ttlSeconds;
    return `${expires}.${this.#sign(sessionKey, projectId, expires)}`;
  }

  /** Whether `pass` was issued to this session for this project and has not expired. */
  admits(pass: string, sessionKey: string, projectId: string): boolean {
    const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(pass);
    if (!match) return false;
    const [, expires, signature] = match as unknown as [string, string, string];
    const expected = Buffer.from(this.#sign(sessionKey, projectId, Number(expires)));
    const sent = Buffer.from(signature);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return false;
    return Number(expires) * 1000 > this.clock.now().getTime();
  }

  #sign(sessionKey: string, projectId: string, expires: number): string {
    return createHmac('sha256', this.#key)
      .update(`${sessionKey}\n${projectId}\n${expires}`)
      .digest('base64url');
  }
}

/** Where a preview's files live: the pass's folder of the project. */
export function previewBase(projectId: string, pass: string): string {
  return `/projects/${encodeURIComponent(projectId)}/preview/${pass}/`;
}

/**
 * Preview answers: `sandbox allow-same-origin` without `allow-scripts`: no script of the page runs
 * (decisions §6b), and the screen's own script may read the document to select elements by
 * pointing. It may load only the project's files (through the pass), inline styles and data:
 * URLs, and only the screen may frame it.
 */
function previewHeaders(req: Request, res: Response, projectId: string, pass: string): void {
  const files = `${req.protocol}://${req.get('host')}${previewBase(projectId, pass)}`;
  const csp = [
    'sandbox allow-same-origin',
    "default-src 'none'",
    `style-src ${files} 'unsafe-inline'`,
    `img-src ${files} data:`,
    `font-src ${files} data:`,
    `media-src ${files} data:`,
    "script-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/**
 * A refused preview in words a person reads in the preview frame (it would show a problem's JSON
 * as text): a sandboxed document like the previews themselves.
 */
function refuseInFrame(res: Response, status: number, message: string): void {
  res.status(status);
  res.setHeader(
    'Content-Security-Policy',
    "sandbox allow-same-origin; default-src 'none'; frame-ancestors 'self'",
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.type('text/html; charset=utf-8').send(
    html`<!doctype html>
      <html lang="en">
        <title>Preview</title>
        <p>${message}</p>
      </html>`.value,
  );
}

function paramsOf(req: Request): { projectId: string; pass: string; file: string } {
  const projectId = String(req.params.id);
  const segments = req.params.file as unknown as string[];
  if (!ID_PATTERN.test(projectId)) throw problemOf('not_found', { detail: 'No such project.' });
  return { projectId, pass: String(req.params.pass), file: segments.join('/') };
}

/**
 * `POST /projects/{id}/preview/{pass}/{file}`: the editor's hidden form posts the draft's HTML
 * (with the session's CSRF token) and the sandboxed frame shows the answer, at the page's own
 * path so that its relative links resolve. `GET` on the same folder answers the project's saved
 * files to that frame, with the cookie of the session the pass was issued to.
 */
export function previewRoutes(router: Router, deps: Deps, passes: PreviewPasses): void {
  const { store } = deps;
  const path = '/projects/:id/preview/:pass/*file';
  const form = express.urlencoded({
    extended: false,
    limit: deps.config.jsonLimitBytes,
    parameterLimit: 10,
  });

  router.post(path, form, async (req, res) => {
    const { projectId, pass, file } = paramsOf(req);
    const auth = maybeAuth(req);
    if (auth?.via !== 'session')
      return refuseInFrame(res, 401, 'Your session has ended: log in again to see the preview.');
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!sameToken(body.csrf_token, auth.csrfToken))
      throw problemOf('csrf_failed', {
        detail: 'The preview form needs the session’s CSRF token.',
      });
    const cannot = () =>
      refuseInFrame(res, 404, 'The preview cannot be shown here: reload the editor.');
    if (!(await store.projects.access(projectId, auth.account.accountNumber))) return cannot();
    if (!passes.admits(pass, auth.sessionKey, projectId)) {
      // Signed by an earlier process (the server restarted), expired, or another session's: the
      // signed-in member gets a fresh pass, as the editor page would give, and the same post goes
      // there (307 keeps the method and body), once: a renewed pass this process cannot read is
      // not renewed again.
      if (req.query.renewed !== undefined) return cannot();
      const fresh = previewBase(projectId, passes.issue(auth.sessionKey, projectId));
      res.redirect(307, `${fresh}${file.split('/').map(encodeURIComponent).join('/')}?renewed`);
      return;
    }
    if (typeof body.html !== 'string')
      throw problemOf('bad_request', { detail: 'Send the page’s HTML in the `html` field.' });
    previewHeaders(req, res, projectId, pass);
    res.type('text/html; charset=utf-8').send(body.html);
  });

  router.get(path, async (req, res) => {
    const { projectId, pass, file } = paramsOf(req);
    const bytes = await savedFile(store, passes, maybeAuth(req), { projectId, pass, file });
    previewHeaders(req, res, projectId, pass);
    // Only the screen's origin (the frame is same-origin with it) reads the project's files.
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.type(file.slice(file.lastIndexOf('.')) || 'application/octet-stream');
    await pipeline(bytes, res);
  });
}

/**
 * A saved file of the project's current revision, for the session the pass was issued to, while
 * the pass lasts and its account can open the project; anything else is the same 404.
 */
async function savedFile(
  store: Store,
  passes: PreviewPasses,
  auth: AuthContext | null,
  where: { projectId: string; pass: string; file: string },
) {
  const missing = () => problemOf('not_found', { detail: `No file ${where.file} here.` });
  if (auth?.via !== 'session' || !passes.admits(where.pass, auth.sessionKey, where.projectId))
    throw missing();
  const access = await store.projects.access(where.projectId, auth.account.accountNumber);
  if (!access) throw missing();
  const state = await store.projectRevisions.state(where.projectId, access.project.revision);
  const entry = state?.manifest.get(where.file);
  const bytes = entry ? await store.bytes.read(entry.sha256) : null;
  if (!bytes) throw missing();
  return bytes;
}
