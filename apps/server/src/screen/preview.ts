import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import express from 'express';
import type { Request, Response, Router } from 'express';
import type { Clock, Store } from '@galley/store';
import { maybeAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { problem } from '../http/problem.js';
import { html } from './html.js';
import { ID_PATTERN, sameToken } from './security.js';

/**
 * A preview's pass: which account may read which project's saved files through the preview
 * routes, until when. The preview document is sandboxed (an opaque origin), so its requests for
 * the page's style sheets and images carry no session cookie; the pass in their URL stands in.
 * It is signed with GALLEY_PREVIEW_SECRET, or a random key of this process when that is not set
 * (then, behind several processes, route a person's requests to one of them).
 */
export class PreviewPasses {
  readonly #key: Uint8Array;

  constructor(
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
    secret: string | null = null,
  ) {
    this.#key = secret === null ? randomBytes(32) : new TextEncoder().encode(secret);
  }

  issue(accountNumber: number, projectId: string): string {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + this.ttlSeconds;
    return `${accountNumber}.${expires}.${this.#sign(accountNumber, projectId, expires)}`;
  }

  /** The account the pass was issued to, or null when it is forged, for another project or old. */
  accountOf(pass: string, projectId: string): number | null {
    const match = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(pass);
    if (!match) return null;
    const [, account, expires, signature] = match as unknown as [string, string, string, string];
    const expected = Buffer.from(this.#sign(Number(account), projectId, Number(expires)));
    const sent = Buffer.from(signature);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return null;
    return Number(expires) * 1000 > this.clock.now().getTime() ? Number(account) : null;
  }

  #sign(accountNumber: number, projectId: string, expires: number): string {
    return createHmac('sha256', this.#key)
      .update(`${accountNumber}\n${projectId}\n${expires}`)
      .digest('base64url');
  }
}

/** Where a preview's files live: the pass's folder of the project. */
export function previewBase(projectId: string, pass: string): string {
  return `/projects/${encodeURIComponent(projectId)}/preview/${pass}/`;
}

/**
 * Preview answers: `sandbox` without `allow-scripts` or `allow-same-origin` gives the document an
 * opaque origin where no script runs (decisions §6b). It may load only the project's files
 * (through the pass), inline styles and data: URLs, and only the screen may frame it.
 */
function previewHeaders(req: Request, res: Response, projectId: string, pass: string): void {
  const files = `${req.protocol}://${req.get('host')}${previewBase(projectId, pass)}`;
  const csp = [
    'sandbox',
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
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'; frame-ancestors 'self'");
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
  if (!ID_PATTERN.test(projectId)) throw problem(404, 'not_found', 'No such project.');
  return { projectId, pass: String(req.params.pass), file: segments.join('/') };
}

/**
 * `POST /projects/{id}/preview/{pass}/{file}`: the editor's hidden form posts the draft's HTML
 * (with the session's CSRF token) and the sandboxed frame shows the answer, at the page's own
 * path so that its relative links resolve. `GET` on the same folder answers the project's saved
 * files to that frame.
 */
export function previewRoutes(router: Router, deps: Deps, passes: PreviewPasses): void {
  const { store } = deps;
  const path = '/projects/:id/preview/:pass/*file';
  const form = express.urlencoded({
    extended: false,
    limit: deps.config.jsonLimitBytes,
    parameterLimit: 10,
  });

  router.post(path, form, (req, res) => {
    const { projectId, pass, file } = paramsOf(req);
    const auth = maybeAuth(req);
    if (auth?.via !== 'session')
      return refuseInFrame(res, 401, 'Your session has ended: log in again to see the preview.');
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!sameToken(body.csrf_token, auth.csrfToken))
      throw problem(403, 'csrf_failed', 'The preview form needs the session’s CSRF token.');
    const account = auth.account.accountNumber;
    if (passes.accountOf(pass, projectId) !== account) {
      // Signed by an earlier process (the server restarted) or expired: the signed-in member gets
      // a fresh pass, as the editor page would give, and the same post goes there (307 keeps the
      // method and body), once: a renewed pass this process cannot read is not renewed again.
      if (req.query.renewed !== undefined)
        return refuseInFrame(res, 404, 'The preview cannot be shown here: reload the editor.');
      const fresh = previewBase(projectId, passes.issue(account, projectId));
      res.redirect(307, `${fresh}${file.split('/').map(encodeURIComponent).join('/')}?renewed`);
      return;
    }
    if (typeof body.html !== 'string')
      throw problem(400, 'bad_request', 'Send the page’s HTML in the `html` field.');
    previewHeaders(req, res, projectId, pass);
    res.type('text/html; charset=utf-8').send(body.html);
  });

  router.get(path, async (req, res) => {
    const { projectId, pass, file } = paramsOf(req);
    const bytes = await savedFile(store, passes, { projectId, pass, file });
    previewHeaders(req, res, projectId, pass);
    // The sandboxed document that asks is of an opaque origin: the pass is what guards the file.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.type(file.slice(file.lastIndexOf('.')) || 'application/octet-stream');
    await pipeline(bytes, res);
  });
}

async function savedFile(
  store: Store,
  passes: PreviewPasses,
  where: { projectId: string; pass: string; file: string },
) {
  const missing = () => problem(404, 'not_found', `No file ${where.file} here.`);
  const account = passes.accountOf(where.pass, where.projectId);
  if (account === null) throw missing();
  const access = await store.projects.access(where.projectId, account);
  if (!access) throw missing();
  const state = await store.projectRevisions.state(where.projectId, access.project.revision);
  const entry = state?.manifest.get(where.file);
  const bytes = entry ? await store.bytes.read(entry.sha256) : null;
  if (!bytes) throw missing();
  return bytes;
}
