// The preview pass: 15 minutes at most, bound to the screen session it was issued to. The
// preview frame is same-origin (`sandbox allow-same-origin`, no scripts), so its requests for the
// page's files carry the session cookie; a pass without that session's cookie opens nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '@galley/store';
import { loadConfig } from '@galley/server';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { PreviewPasses } from '../../src/screen/preview.js';
import { startTestServer } from '../platform/harness.js';
import type { TestServer } from '../platform/harness.js';
import { createProject, screenSession } from '../v1/helpers.js';

describe('preview passes', () => {
  const secret = 'a-shared-secret-of-at-least-32-characters';
  const session = 'a'.repeat(64);

  it('with GALLEY_PREVIEW_SECRET, a pass from one process is accepted by another', () => {
    const clock = new TestClock();
    const pass = new PreviewPasses(clock, 60, secret).issue(session, 'prj_a');
    expect(new PreviewPasses(clock, 60, secret).admits(pass, session, 'prj_a')).toBe(true);
    expect(new PreviewPasses(clock, 60, secret).admits(pass, session, 'prj_b')).toBe(false);
    expect(new PreviewPasses(clock, 60, secret).admits(pass, 'b'.repeat(64), 'prj_a')).toBe(false);
    expect(new PreviewPasses(clock, 60).admits(pass, session, 'prj_a')).toBe(false);
    clock.advanceSeconds(61);
    expect(new PreviewPasses(clock, 60, secret).admits(pass, session, 'prj_a')).toBe(false);
  });

  it('lives 15 minutes unless told otherwise', () => {
    const clock = new TestClock();
    const passes = new PreviewPasses(clock);
    const pass = passes.issue(session, 'prj_a');
    clock.advanceSeconds(15 * 60 - 1);
    expect(passes.admits(pass, session, 'prj_a')).toBe(true);
    clock.advanceSeconds(1);
    expect(passes.admits(pass, session, 'prj_a')).toBe(false);
  });

  it('reads the secret from the environment and refuses a short one', () => {
    expect(loadConfig({ GALLEY_PREVIEW_SECRET: secret }).previewSecret).toBe(secret);
    expect(loadConfig({}).previewSecret).toBeNull();
    expect(() => loadConfig({ GALLEY_PREVIEW_SECRET: 'short' })).toThrow(/GALLEY_PREVIEW_SECRET/);
  });
});

describeStores('the preview’s saved files over HTTP', (t) => {
  let s: TestServer;
  let project: string;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitPerMinute: 1_000_000 }, t);
    project = (await createProject(s, s.token)).id;
  });
  afterAll(() => s?.close());

  /** A new screen session of Ada's and the preview folder its editor page gives it. */
  async function editorSession(email = s.account.email, password = s.password, id = project) {
    const session = await screenSession(s, email, password);
    const editor = await fetch(`${s.url}/projects/${id}/edit`, {
      headers: { cookie: session.cookie },
    });
    expect(editor.status).toBe(200);
    const base = /data-preview-base="([^"]+)"/.exec(await editor.text())![1]!;
    expect(base).toMatch(/^\/projects\/prj_[0-9a-z]+\/preview\/\d+\.[A-Za-z0-9_-]{43}\/$/);
    return { ...session, base };
  }

  const file = (base: string, name: string, headers: Record<string, string> = {}) =>
    fetch(`${s.url}${base}${name}`, { headers });

  async function expectRefused(answer: Response): Promise<void> {
    expect(answer.status).toBe(404);
    const text = await answer.text();
    expect(text).not.toContain('margin');
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  }

  it('serves a saved file with the cookie of the session the pass was issued to', async () => {
    const { cookie, base } = await editorSession();
    const css = await file(base, 'style.css', { cookie });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toBe('body { margin: 0; }\n');
    const csp = css.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^sandbox allow-same-origin; /);
    for (const directive of [
      "default-src 'none'",
      "script-src 'none'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'self'",
    ])
      expect(csp).toContain(directive);
    expect(csp).toContain(`style-src ${s.url}${base} 'unsafe-inline'`);
    expect(csp).toContain(`img-src ${s.url}${base} data:`);
    expect(css.headers.get('x-content-type-options')).toBe('nosniff');
    expect(css.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    await expectRefused(await file(base, 'nothing.css', { cookie }));
  });

  it('refuses the pass alone, with a token, or with another session’s cookie', async () => {
    const { base } = await editorSession();
    const other = await editorSession();
    await expectRefused(await file(base, 'style.css'));
    await expectRefused(await file(base, 'style.css', { authorization: `Bearer ${s.token}` }));
    // Ada's other session, with a pass of its own that works for it.
    await expectRefused(await file(base, 'style.css', { cookie: other.cookie }));
    expect((await file(other.base, 'style.css', { cookie: other.cookie })).status).toBe(200);
    // A pass of another project, on this one.
    const elsewhere = (await createProject(s, s.token)).id;
    const foreign = await editorSession(s.account.email, s.password, elsewhere);
    const moved = foreign.base.replace(elsewhere, project);
    await expectRefused(await file(moved, 'style.css', { cookie: foreign.cookie }));
  });

  it('refuses a session whose account cannot open the project', async () => {
    const cy = await s.addAccount(`cy-${t.kind}@example.org`, 'Cy');
    const { cookie, base, csrf } = await editorSession(cy.account.email, cy.password);
    await expectRefused(await file(base, 'style.css', { cookie }));
    const posted = await fetch(`${s.url}${base}index.html`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrf, html: '<p>x</p>' }),
      redirect: 'manual',
    });
    expect(posted.status).toBe(404);
    expect(await posted.text()).not.toContain('<p>x</p>');
  });

  it('refuses after logout', async () => {
    const { cookie, csrf, base } = await editorSession();
    expect((await file(base, 'style.css', { cookie })).status).toBe(200);
    const out = await fetch(`${s.url}/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.status).toBe(204);
    await expectRefused(await file(base, 'style.css', { cookie }));
  });

  it('refuses a pass after 15 minutes; a post renews it for the signed-in member', async () => {
    const { cookie, csrf, base } = await editorSession();
    t.clock.advanceSeconds(15 * 60 - 1);
    expect((await file(base, 'style.css', { cookie })).status).toBe(200);
    t.clock.advanceSeconds(1);
    await expectRefused(await file(base, 'style.css', { cookie }));
    const post = (path: string) =>
      fetch(`${s.url}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: csrf, html: '<p>again</p>' }),
        redirect: 'manual',
      });
    const renewed = await post(`${base}index.html`);
    expect(renewed.status).toBe(307);
    const fresh = renewed.headers.get('location')!;
    expect(fresh).toMatch(/^\/projects\/[^/]+\/preview\/[^/]+\/index\.html\?renewed$/);
    const shown = await post(fresh);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-security-policy')).toMatch(/^sandbox allow-same-origin; /);
    expect(await shown.text()).toBe('<p>again</p>');
    const folder = fresh.replace(/index\.html\?renewed$/, '');
    expect((await file(folder, 'style.css', { cookie })).status).toBe(200);
    // Another session cannot use the renewed pass either.
    const other = await editorSession();
    await expectRefused(await file(folder, 'style.css', { cookie: other.cookie }));
  });

  it('answers the preview post in the frame, same-origin and without scripts', async () => {
    const { cookie, csrf, base } = await editorSession();
    const posted = await fetch(`${s.url}${base}index.html`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrf, html: '<p>draft</p>' }),
    });
    expect(posted.status).toBe(200);
    const csp = posted.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^sandbox allow-same-origin; default-src 'none'; /);
    expect(csp).toContain("script-src 'none'");
    expect(csp).not.toContain('allow-scripts');
  });
});
