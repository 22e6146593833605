// The login, projects, project and tokens screens at a phone's width (390 px) and a desktop's
// (1440 px): nothing overflows the page, no word is broken letter by letter, the flows work, and
// axe-core finds no serious or critical violation.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { writeZip } from '@galley/core';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openSite, screenshots, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { page as sitePage } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

/** axe and full-page pictures of four screens take a while on a busy machine. */
const SLOW_MS = 120_000;

const LONG_TITLE =
  'Harbour Café — the weekend edition with Supercalifragilisticexpialidociousbreadandpastries';
const LONG_EMAIL = 'bartholomew.longname-the-longest@a-very-long-subdomain.example.org';
const LONG_FILE = 'autumn-menu-with-opening-hours-and-the-full-list-of-breads.html';

/** A site whose names are long: the title, a page's file and a heading without spaces. */
function longSiteZip(): Uint8Array {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  return writeZip(
    new Map([
      [
        'index.html',
        utf8(sitePage('Home', `<main id="content"><a href="${LONG_FILE}">Menu</a></main>`)),
      ],
      [LONG_FILE, utf8(sitePage('Autumn menu', '<main id="menu"><p>Bread.</p></main>'))],
      ['style.css', utf8('body { font-family: serif; }')],
    ]),
  );
}

/**
 * In-page: the words (4 letters or more) that the layout breaks into lines of fewer than 6
 * letters each, and whether the page is wider than the window.
 */
const LAYOUT_PROBLEMS = `(() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !parent.checkVisibility() || parent.closest('.sr-only, thead, .skip')) continue;
    const text = node.textContent;
    for (const match of text.matchAll(/\\S{4,}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1 && match[0].length / lines.size < 6) broken.push(match[0] + ' in ' + lines.size + ' lines');
    }
  }
  return { broken, overflow: document.documentElement.scrollWidth - window.innerWidth };
})()`;

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: await axeSource });
  return page.evaluate<string[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
}

describe.skipIf(!!why)('screen: phone and desktop widths, accessibility (axe-core)', () => {
  let t: ScreenTest;
  let projectId: string;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await startScreenTest();
    const site = await openSite(t, longSiteZip());
    headers = {
      authorization: `Bearer ${t.server.token}`,
      'x-editor-client': 'test-setup',
      'content-type': 'application/json',
    };
    projectId = site.id;
    const v1 = `${t.server.url}/api/v1/projects/${projectId}`;
    await fetch(v1, { method: 'PATCH', headers, body: JSON.stringify({ title: LONG_TITLE }) });
    await t.server.addAccount(LONG_EMAIL, 'Bartholomew');
    await fetch(`${v1}/members`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ email: LONG_EMAIL, role: 'viewer' }),
    });
    // A confirmed version (only a person's session may confirm).
    const { page, context } = await t.signedIn();
    await page.goto(`${t.server.url}/projects/${projectId}`);
    await page.getByRole('button', { name: 'Confirm revision 2' }).click();
    await page.locator('#confirmation-list table').waitFor();
    await context.close();
    // Another client of Ada's holds the lock, with a change in the draft of index.html.
    const label = JSON.stringify({ kind: 'screen', label: 'Ada on the editing screen' });
    await fetch(`${v1}/lock`, { method: 'PUT', headers, body: label });
    const pageUrl = `${t.server.url}/api/v1/pages/${site.index}`;
    const draft = (await (await fetch(`${pageUrl}/draft`, { headers })).json()) as {
      draft_token: string;
    };
    const operation = { kind: 'insert', parent: '#content', html: '<p>Soup of the day.</p>' };
    await fetch(`${pageUrl}/operations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ draft_token: draft.draft_token, operation }),
    });
  });
  afterAll(() => t?.close());

  const quietOf = new WeakMap<Page, () => Promise<void>>();
  /**
   * Watches the requests of `page`; the function it gives resolves once none has been on its way
   * for half a second. An event stream (the project page follows its project's) is left out: it
   * stays open as long as the page, so the browser's own "network idle" never comes.
   */
  function watchRequests(page: Page): () => Promise<void> {
    const open = new Set<Request>();
    let settledAt = Date.now();
    const done = (request: Request) => {
      open.delete(request);
      settledAt = Date.now();
    };
    page.on('request', (request) => {
      if (!new URL(request.url()).pathname.endsWith('/events')) open.add(request);
    });
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    return () =>
      expect
        .poll(() => open.size === 0 && Date.now() - settledAt >= 500, { timeout: 30_000 })
        .toBe(true);
  }

  /** A signed-in browser at `width`, its clock five minutes after the server's. */
  async function at(width: number, options: { bypassCSP?: boolean } = {}) {
    const context: BrowserContext = await t.browser.newContext({
      viewport: { width, height: 900 },
      ...options,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    quietOf.set(page, watchRequests(page));
    await page.clock.setFixedTime(new Date(t.server.clock.now().getTime() + 5 * 60_000));
    return { context, page, problems };
  }

  const screens = [
    { name: 'login', path: '/login', ready: '#login-form' },
    { name: 'projects', path: '/projects', ready: '#project-list table' },
    { name: 'project', path: () => `/projects/${projectId}`, ready: '#history-list table' },
    { name: 'tokens', path: '/account/tokens', ready: '#token-list table' },
  ] as const;

  async function visit(page: Page, screen: (typeof screens)[number]): Promise<void> {
    const path = typeof screen.path === 'function' ? screen.path() : screen.path;
    await page.goto(`${t.server.url}${path}`);
    await page.locator(screen.ready).waitFor();
    // Let the page script finish its requests and format the times.
    await quietOf.get(page)!();
  }

  for (const width of [390, 1440]) {
    it(
      `lays out every screen at ${width} px: no overflow, no word broken letter by letter`,
      async () => {
        const { page, context, problems } = await at(width);
        for (const screen of screens) {
          if (screen.name === 'projects')
            await logIn(page, t.server.url, t.server.account.email, t.server.password);
          await visit(page, screen);
          if (screen.name === 'project')
            await expect.poll(() => page.locator('.unsaved').count()).toBe(1);
          const layout = await page.evaluate<{ broken: string[]; overflow: number }>(
            LAYOUT_PROBLEMS,
          );
          expect(layout.broken, `${screen.name} at ${width}`).toEqual([]);
          expect(layout.overflow, `${screen.name} at ${width}`).toBeLessThanOrEqual(0);
          // Every screen on a phone, and the project (the busiest) on a desktop, for the docs.
          if (width === 390 || screen.name === 'project')
            await page.screenshot({
              path: new URL(`${screen.name}-${width}.png`, screenshots).pathname,
              fullPage: true,
            });
        }
        expect(problems).toEqual([]);
        await context.close();
      },
      SLOW_MS,
    );
  }

  it(
    'keeps the flows usable on a phone: confirm, a role, a dialog that fits',
    async () => {
      // The other client lets go of the lock: the rename is the person's own.
      await fetch(`${t.server.url}/api/v1/projects/${projectId}/lock`, {
        method: 'DELETE',
        headers,
      });
      const { page, context } = await at(390);
      await logIn(page, t.server.url, t.server.account.email, t.server.password);
      await visit(page, screens[2]);
      await expect
        .poll(() => page.locator('#project-lock').textContent())
        .toBe('Nobody is editing this project right now.');
      await page.getByLabel('Title', { exact: true }).fill(`${LONG_TITLE}!`);
      await page.getByRole('button', { name: 'Rename' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe(`${LONG_TITLE}!`);
      await page.getByRole('button', { name: 'Confirm revision 3' }).click();
      await expect
        .poll(() => page.locator('#project-status').textContent())
        .toMatch(/^Confirmed as version/);
      const row = page.locator('#member-list tr', { hasText: LONG_EMAIL });
      await row.getByLabel('Role of Bartholomew').selectOption('editor');
      await row.getByRole('button', { name: 'Save role for Bartholomew' }).click();
      await expect.poll(() => page.locator('#project-status').textContent()).toContain('editor');
      await page.getByRole('button', { name: 'Remove Bartholomew' }).click();
      const box = (await page.getByRole('dialog').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await page.screenshot({
        path: new URL('project-dialog-390.png', screenshots).pathname,
      });
      await page.keyboard.press('Escape');
      await context.close();
    },
    SLOW_MS,
  );

  for (const width of [1440, 390]) {
    it(
      `finds no serious or critical axe-core violation at ${width} px`,
      async () => {
        // axe is injected as an inline script, which the screen's CSP refuses: this context
        // bypasses the policy (the policy itself is tested in account.test.ts).
        const { page, context } = await at(width, { bypassCSP: true });
        const found: Record<string, string[]> = {};
        for (const screen of screens) {
          if (screen.name === 'projects')
            await logIn(page, t.server.url, t.server.account.email, t.server.password);
          await visit(page, screen);
          found[screen.name] = await axeViolations(page);
        }
        // A confirmation dialog open over the project page.
        await visit(page, screens[2]);
        await page.getByRole('button', { name: 'Undo the last change' }).click();
        await page.getByRole('dialog').waitFor();
        found['project with a dialog'] = await axeViolations(page);
        expect(found).toEqual({
          login: [],
          projects: [],
          project: [],
          tokens: [],
          'project with a dialog': [],
        });
        await context.close();
      },
      SLOW_MS,
    );
  }
});
