import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openSite, screenshot, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { button, PREVIEW, previewOf, rowOf, SLOW_MS } from './editor-helpers.js';
import { hostileSiteZip, plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

const lockStatus = (page: Page) => page.locator('#lock-status').textContent();

/** The preview's frame as it is now, once the page's element with this id is in it. */
async function previewFrame(page: Page, id: string): Promise<Frame> {
  await previewOf(page).locator(`#${id}`).waitFor();
  return (await (await page.locator(PREVIEW).elementHandle()).contentFrame())!;
}

/** A new account, made a member of the project with `role`; its password to log in with. */
async function addMember(
  t: ScreenTest,
  projectId: string,
  person: { email: string; name: string; role: string },
) {
  const account = await t.server.addAccount(person.email, person.name);
  const put = await fetch(`${t.server.url}/api/v1/projects/${projectId}/members`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${t.server.token}`,
      'x-editor-client': 'test-setup',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email: person.email, role: person.role }),
  });
  expect(put.status).toBe(200);
  return account;
}

/**
 * Resolves once the page's live view is connected and was told the lock: it then asks who holds
 * it (a lock let go before that is, to the view, just free).
 */
function liveViewPrimed(page: Page): Promise<unknown> {
  let connected = false;
  page.on('response', (r) => {
    if (r.url().endsWith('/events')) connected = true;
  });
  return page.waitForRequest((r) => connected && r.method() === 'GET' && r.url().endsWith('/lock'));
}

describe.skipIf(!!why)('screen: the lock and the isolation of stored pages', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it(
    'shows the holder to a second client, which stays read-only',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const bob = await addMember(t, site.id, {
        email: 'bob@example.org',
        name: 'Bob',
        role: 'editor',
      });

      const ada = await t.signedIn();
      await ada.page.goto(site.editor);
      await expect.poll(() => lockStatus(ada.page)).toContain('You are editing');

      const other = await t.person();
      await logIn(other.page, t.server.url, 'bob@example.org', bob.password);
      await other.page.goto(site.editor);
      await expect.poll(() => lockStatus(other.page)).toContain('Read-only');
      expect(await lockStatus(other.page)).toContain('Ada on the editing screen');
      // Nothing can be changed here: the draft's buttons and the palette's inserts are off.
      for (const name of ['Save', 'Undo', 'Redo', 'Heading', 'Paragraph', 'Section'])
        expect(await button(other.page, name).isDisabled(), name).toBe(true);
      // The saved page is still shown: outline and preview.
      await expect.poll(() => rowOf(other.page, 'intro').count()).toBe(1);
      await expect.poll(() => previewOf(other.page).locator('#intro').count()).toBe(1);
      await screenshot(other.page, 'editor-read-only');

      // When Ada leaves, the lock is released and Bob's editor opens.
      await ada.page.goto(`${t.server.url}/projects`);
      await other.page.reload();
      await expect.poll(() => lockStatus(other.page)).toContain('You are editing');
      expect(ada.problems).toEqual([]);
      expect(other.problems.filter((p) => !p.includes('423'))).toEqual([]);
      await ada.context.close();
      await other.context.close();
    },
    SLOW_MS,
  );

  it(
    'leaves a lock let go with unsaved changes to its reloading tab; a waiting tab offers to take over',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const carol = await addMember(t, site.id, {
        email: 'carol@example.org',
        name: 'Carol',
        role: 'viewer',
      });
      const first = await t.signedIn();
      first.page.on('dialog', (dialog) => void dialog.accept()); // leaving with unsaved changes asks
      await first.page.goto(site.editor);
      await expect.poll(() => lockStatus(first.page)).toContain('You are editing');
      await previewOf(first.page)
        .locator('#intro')
        .dblclick({ position: { x: 5, y: 5 } });
      await first.page.keyboard.type('Not saved yet.');
      const answered = first.page.waitForResponse((r) => r.url().endsWith('/operations'));
      await first.page.keyboard.press('Enter');
      expect((await answered).status()).toBe(200); // the change is in the server's draft
      await expect.poll(() => button(first.page, 'Save').isEnabled()).toBe(true);
      // A second tab of the same person waits for the lock, read-only.
      const second = await t.signedIn();
      const primed = liveViewPrimed(second.page);
      await second.page.goto(site.editor);
      await expect.poll(() => lockStatus(second.page)).toContain('is editing since');
      await primed;

      // The first tab reloads: it lets the lock go as it unloads, and takes it up again with its
      // draft; the waiting tab, told the lock was let go with unsaved changes, does not take it.
      await first.page.reload();
      await expect.poll(() => lockStatus(first.page)).toContain('You are editing');
      await expect
        .poll(() => previewOf(first.page).locator('#intro').textContent())
        .toBe('Not saved yet.');
      await expect.poll(() => lockStatus(second.page)).toContain('is editing since');

      // A viewer watches too.
      const viewer = await t.person();
      await logIn(viewer.page, t.server.url, 'carol@example.org', carol.password);
      await viewer.page.goto(site.editor);
      await expect.poll(() => lockStatus(viewer.page)).toContain('is editing since');
      // It is told who edits, and that it only views (it never asks for the lock).
      expect(await lockStatus(viewer.page)).toMatch(/; your role in this project is viewer\.$/);

      // It leaves: the waiting tab says so and offers to take over, and waits for its person.
      await first.page.goto(`${t.server.url}/projects`);
      await expect.poll(() => lockStatus(second.page)).toContain('left unsaved changes');
      // The viewer, who could not take the lock, is offered nothing.
      await expect
        .poll(() => lockStatus(viewer.page))
        .toBe('Read-only: your role in this project is viewer.');
      expect(await button(viewer.page, 'Edit here').count()).toBe(0);
      expect(viewer.problems).toEqual([]); // no lock asked for, so none refused
      await viewer.context.close();
      await screenshot(second.page, 'editor-lock-left-unsaved');
      await second.page.waitForTimeout(1_000);
      expect(await lockStatus(second.page)).toMatch(/^Read-only: the lock is free/);
      await button(second.page, 'Edit here').click();
      await expect.poll(() => lockStatus(second.page)).toContain('You are editing');
      // Its own draft: the other tab's change stays in the other tab's draft.
      await expect
        .poll(() => previewOf(second.page).locator('#intro').textContent())
        .not.toBe('Not saved yet.');
      // The line stays true once the editor is open (the event of its own take came too).
      await second.page.waitForTimeout(1_000);
      expect(await lockStatus(second.page)).toContain('You are editing');

      // The first tab comes back read-only; a holder with nothing unsaved that leaves lets it
      // have the lock at once, and its changes are there again.
      await first.page.goto(site.editor);
      await expect.poll(() => lockStatus(first.page)).toContain('is editing since');
      await second.page.goto(`${t.server.url}/projects`);
      await expect.poll(() => lockStatus(first.page)).toContain('You are editing');
      await expect
        .poll(() => previewOf(first.page).locator('#intro').textContent())
        .toBe('Not saved yet.');
      expect(first.problems.filter((p) => !p.includes('423'))).toEqual([]);
      expect(second.problems.filter((p) => !p.includes('423'))).toEqual([]);
      await first.context.close();
      await second.context.close();
    },
    SLOW_MS,
  );

  it(
    'stores a page with scripts as written and previews it without running any of it',
    async () => {
      const site = await openSite(t, hostileSiteZip());
      const { page, context, problems, violations } = await t.person();
      const served: { url: string; csp: string | null; nosniff: string | null }[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/preview/'))
          served.push({
            url: r.url(),
            csp: r.headers()['content-security-policy'] ?? null,
            nosniff: r.headers()['x-content-type-options'] ?? null,
          });
      });
      await logIn(page, t.server.url, t.server.account.email, t.server.password);
      const title = await page.title();
      await page.goto(site.editor);
      await expect.poll(() => lockStatus(page)).toContain('You are editing');
      await previewFrame(page, 'hello');
      // The outline shows the page's nesting (from the draft engine, not from a parse here).
      const level = (id: string) => rowOf(page, id).getAttribute('aria-level');
      await expect.poll(() => rowOf(page, 'hello').count()).toBe(1);
      expect(Number(await level('hello'))).toBe(Number(await level('box')) + 1);

      // Edit the page through the screen and save it: stored as written, scripts included.
      await previewOf(page).locator('#hello').dblclick();
      await page.keyboard.type('Hello again');
      await page.keyboard.press('Enter');
      await expect.poll(() => previewOf(page).locator('#hello').textContent()).toBe('Hello again');
      await button(page, 'Save').click();
      await expect
        .poll(() => page.locator('p.notice[data-place="toolbar"]').textContent())
        .toBe('Saved as revision 2.');
      const exported = await fetch(`${t.server.url}/api/v1/projects/${site.id}/folder`, {
        headers: { authorization: `Bearer ${t.server.token}` },
      });
      const { readZip } = await import('@galley/core');
      const stored = new TextDecoder().decode(
        readZip(new Uint8Array(await exported.arrayBuffer())).folder.get('index.html'),
      );
      expect(stored).toContain('Hello again');
      expect(stored).toContain('<script>window.ranInPreview = true;');
      expect(stored).toContain('onerror="window.ranInPreview = true; top.pwned = true"');
      expect(stored).toContain('href="javascript:top.pwned=true"');
      expect(stored).toContain('style="font-weight: bold" onmouseenter="top.pwned = true"');
      expect(stored).toContain('<style>#hello { color: purple; }</style>');

      // Try every trigger inside the preview: hover, click, the javascript: link.
      const inFrame = await previewFrame(page, 'hello');
      await inFrame.locator('#hover').hover();
      await inFrame.locator('#hello').hover();
      await inFrame.locator('#box').click({ position: { x: 2, y: 2 } });
      await inFrame
        .locator('#js-link')
        .click({ noWaitAfter: true })
        .catch(() => undefined);
      await page.waitForTimeout(300);

      // Nothing ran: not in the screen's origin, not even in the sandboxed frame, which shares the
      // screen's origin (`allow-same-origin`, so the screen's script can read it) but runs no script.
      expect(
        await page.evaluate('[typeof window.pwned, typeof window.ranInPreview, document.title]'),
      ).toEqual(['undefined', 'undefined', 'index.html in Hostile · Galley']);
      expect(title).toBe('Projects · Galley');
      const frame = await previewFrame(page, 'hello');
      expect(
        await frame.evaluate('[typeof window.ranInPreview, typeof window.pwned, origin]'),
      ).toEqual(['undefined', 'undefined', new URL(t.server.url).origin]);
      expect(await page.locator(PREVIEW).getAttribute('sandbox')).toBe('allow-same-origin');
      // The screen's own script may read the frame's document (selecting by pointing needs it).
      expect(
        await page.evaluate(
          `document.querySelector('${PREVIEW}').contentDocument.getElementById('hello').textContent`,
        ),
      ).toBe('Hello again');
      expect(served.length).toBeGreaterThan(0);
      for (const answer of served) {
        expect(answer.csp, answer.url).toMatch(/^sandbox allow-same-origin; /);
        expect(answer.csp, answer.url).not.toContain('allow-scripts');
        expect(answer.csp, answer.url).toContain("script-src 'none'");
        expect(answer.nosniff).toBe('nosniff');
      }
      await screenshot(page, 'editor-hostile-page');
      // The preview applies the page's inline styles (its policy allows them)…
      const style = (id: string, property: string) =>
        frame.evaluate<string>(`getComputedStyle(document.getElementById('${id}')).${property}`);
      expect([await style('box', 'borderTopStyle'), await style('hello', 'fontWeight')]).toEqual([
        'solid',
        '700',
      ]);
      // …and the screen's own document never met the page: not one policy violation there (no
      // inline style, handler or style element of the page was parsed in the screen's origin).
      expect(await violations()).toEqual([]);
      // The page's own scripts were refused in the sandboxed frame, by the sandbox or by the
      // preview's policy (`script-src 'none'`, where the screen's is 'self'); nothing else logged.
      const inPreview = [
        /^Blocked script execution in '[^']+\/preview\/[^']+' because the document's frame is sandboxed/,
        /violates the following Content Security Policy directive 'script-src 'none''/,
      ];
      expect(problems.filter((p) => !inPreview.some((known) => known.test(p)))).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  it('refuses a preview post without the session’s CSRF token, and renews a pass it cannot read once', async () => {
    const site = await openSite(t, plainSiteZip());
    const login = await fetch(`${t.server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: t.server.account.email, password: t.server.password }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf_token: csrf } = (await login.json()) as { csrf_token: string };
    const editor = await (await fetch(site.editor, { headers: { cookie } })).text();
    const base = /data-preview-base="([^"]+)"/.exec(editor)![1]!;
    const post = (path: string, token: string, query = '') =>
      fetch(`${t.server.url}${path}index.html${query}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: token, html: '<p>x</p>' }),
        redirect: 'manual',
      });
    expect((await post(base, 'wrong')).status).toBe(403);
    // A pass this process cannot read (from before a restart, expired, forged) is renewed for the
    // signed-in person: the same post, once, under a fresh pass; not a second time.
    const forged = base.replace(/\.[A-Za-z0-9_-]{43}\/$/, `.${'A'.repeat(43)}/`);
    const renewed = await post(forged, csrf);
    expect(renewed.status).toBe(307);
    const fresh = renewed.headers.get('location')!;
    expect(fresh).toMatch(/^\/projects\/[^/]+\/preview\/[^/]+\/index\.html\?renewed$/);
    expect(fresh.startsWith(forged)).toBe(false);
    expect((await post(fresh.replace(/index\.html\?renewed$/, ''), csrf)).status).toBe(200);
    const again = await post(forged, csrf, '?renewed');
    expect(again.status).toBe(404);
    expect(again.headers.get('content-security-policy')).toMatch(
      /^sandbox allow-same-origin; default-src 'none'/,
    );
    expect(await again.text()).toContain('The preview cannot be shown here: reload the editor.');
    const ok = await post(base, csrf);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toMatch(
      /^sandbox allow-same-origin; default-src 'none'/,
    );
    expect(await ok.text()).toBe('<p>x</p>');
    // The saved files answer to the session the pass was issued to (the same-origin frame sends
    // its cookie), never to the pass alone.
    const css = await fetch(`${t.server.url}${base}style.css`, { headers: { cookie } });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${t.server.url}${base}style.css`)).status).toBe(404);
    expect((await fetch(`${t.server.url}${forged}style.css`, { headers: { cookie } })).status).toBe(
      404,
    );
    expect((await fetch(`${t.server.url}${base}nothing.css`, { headers: { cookie } })).status).toBe(
      404,
    );
  });

  it('applies the saved style sheet in the preview through the session’s cookie', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context, problems } = await t.signedIn();
    await page.goto(site.editor);
    const frame = await previewFrame(page, 'title');
    // style.css colours the title teal: the frame's request for it carried the cookie.
    await expect
      .poll(() =>
        frame.evaluate<string>("getComputedStyle(document.getElementById('title')).color"),
      )
      .toBe('rgb(0, 128, 128)');
    expect(problems).toEqual([]);
    await context.close();
  });
});
