// The screen as a person finds their way around it: links that stay in the origin the page came
// from, an ended session that leads back to the login (and back again), and errors said once.
import { readFile } from 'node:fs/promises';
import { writeZip } from '@galley/core';
import { sha256Hex } from '@galley/store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openSite, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { PREVIEW, previewFrame, tree } from './editor-helpers.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

/** A well-formed project id that names no project. */
const UNKNOWN = 'prj_aaaaaaaaaaaaaaaaaaaa';

/** How many times `text` appears in the visible text of `page`'s main region. */
async function timesShown(page: Page, text: string): Promise<number> {
  const shown = await page.locator('main').innerText();
  return shown.split(text).length - 1;
}

/**
 * Answers the page's navigations to the login page with 204 (the browser then stays where it
 * is), so that what the page says meanwhile can be read; returns the URLs it asked for.
 */
async function holdLogin(page: Page): Promise<string[]> {
  const asked: string[] = [];
  await page.route(/\/login\?next=/, async (route) => {
    asked.push(route.request().url());
    await route.fulfill({ status: 204 });
  });
  return asked;
}

describe.skipIf(!!why)('screen: links, ended sessions, errors said once', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it('links within the origin that served the page, under another host name too', async () => {
    // The service's base URL names 127.0.0.1; the person uses "localhost" for the same server.
    const other = t.server.url.replace('//127.0.0.1:', '//localhost:');
    expect(other).not.toBe(t.server.url);
    const site = await openSite(t, plainSiteZip());
    expect(site.editor).toBe(`${t.server.url}/projects/${site.id}/edit`);
    const { page, context, problems } = await t.person();
    await logIn(page, other, t.server.account.email, t.server.password);

    // Projects: the "Edit" link is a path, and leads to the editor with the session.
    const row = page.locator(`#project-list tr[data-project-id="${site.id}"]`);
    const edit = row.getByRole('link', { name: /^Edit / });
    await expect.poll(() => edit.count()).toBe(1);
    expect(await edit.getAttribute('href')).toBe(`/projects/${site.id}/edit`);
    expect(
      await row.getByRole('link', { name: 'Harbour Café', exact: true }).getAttribute('href'),
    ).toBe(`/projects/${site.id}`);
    await edit.click();
    await page.waitForURL(`${other}/projects/${site.id}/edit`);
    await expect
      .poll(() => page.locator('#lock-status').textContent())
      .toContain('You are editing');

    // The project: "Open the page editor" and a confirmed version's ZIP are paths too.
    await page.getByRole('link', { name: '← Project' }).click();
    await page.waitForURL(`${other}/projects/${site.id}`);
    const editor = page.getByRole('link', { name: 'Open the page editor' });
    await expect.poll(() => editor.count()).toBe(1);
    expect(await editor.getAttribute('href')).toBe(`/projects/${site.id}/edit`);
    await page.getByRole('button', { name: 'Confirm revision 1' }).click();
    const version = page.locator('#confirmation-list tr[data-version="1"]');
    const zip = version.getByRole('link', { name: 'Download version 1' });
    await expect.poll(() => zip.count()).toBe(1);
    expect(await zip.getAttribute('href')).toMatch(/^\/api\/v1\/projects\/[^/]+\//);
    const [download] = await Promise.all([page.waitForEvent('download'), zip.click()]);
    const bytes = await readFile(await download.path());
    expect(sha256Hex(bytes)).toBe(await version.locator('code.sha').textContent());
    expect(problems).toEqual([]);
    await context.close();
  });

  /**
   * Opens the editor, then ends its session as a lapsed cookie does: the lock's next renewal is
   * answered 401. The navigations to the login are held (see `holdLogin`).
   */
  async function editorWithEndedSession(page: Page, context: BrowserContext) {
    const site = await openSite(t, plainSiteZip());
    // The editor renews its lock every 20 s; a fake clock brings the next renewal at once.
    await page.clock.install();
    const path = `/projects/${site.id}/edit?page=${site.index}`;
    await page.goto(`${t.server.url}${path}`);
    const status = page.locator('#lock-status');
    await expect.poll(() => status.textContent()).toContain('You are editing');
    // Open (draft read, the page in the preview and the outline): only then does the renewal
    // timer start.
    await previewFrame(page);
    await expect.poll(() => tree(page).getByRole('treeitem').count()).toBeGreaterThan(0);

    // The cookie runs out (its Max-Age): the renewal is answered 401 without a session.
    const asked = await holdLogin(page);
    await context.clearCookies();
    await page.clock.fastForward(20_000);
    await expect
      .poll(() => asked)
      .toEqual([`${t.server.url}/login?next=${encodeURIComponent(path)}`]);
    return { path, status, login: asked[0]! };
  }

  it('sends the editor to the login when the session cookie is gone, then back', async () => {
    const { page, context } = await t.signedIn();
    const { path, status, login } = await editorWithEndedSession(page, context);
    await expect.poll(() => status.textContent()).toContain('Your session has ended');
    expect(await page.locator('main').innerText()).not.toMatch(/Bearer|token/i);

    // Where the page went signs in and comes back to the same page and draft.
    await page.unroute(/\/login\?next=/);
    await page.goto(login);
    await page.getByLabel('E-mail').fill(t.server.account.email);
    await page.getByLabel('Password').fill(t.server.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${t.server.url}${path}`);
    await expect.poll(() => status.textContent()).toContain('You are editing');
    await context.close();
  });

  it('says the ended session in the lock’s place, with a link to sign in again', async () => {
    const { page, context } = await t.signedIn();
    const { path, status } = await editorWithEndedSession(page, context);
    await expect.poll(() => status.textContent()).toBe('Your session has ended — sign in again.');
    const link = status.getByRole('link', { name: 'sign in again' });
    expect(await link.getAttribute('href')).toBe(`/login?next=${encodeURIComponent(path)}`);
    await context.close();
  });

  it('sends a page whose session expired to the login on its next request, then back', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context } = await t.signedIn();
    await page.goto(`${t.server.url}/projects/${site.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Harbour Café');

    // The session outlives its time on the server: the rename is answered 401.
    t.server.clock.advanceSeconds(t.server.config.sessionTtlSeconds + 1);
    const asked = await holdLogin(page);
    await page.getByLabel('Title', { exact: true }).fill('Renamed too late');
    await page.getByRole('button', { name: 'Rename' }).click();
    const next = encodeURIComponent(`/projects/${site.id}`);
    await expect.poll(() => asked).toEqual([`${t.server.url}/login?next=${next}`]);
    const error = page.locator('#project-error');
    await expect.poll(() => error.innerText()).toBe('Your session has ended — sign in again.');
    expect(await error.getByRole('link').getAttribute('href')).toBe(`/login?next=${next}`);
    expect(await page.locator('main').innerText()).not.toMatch(/Bearer|token/i);

    // The same on the token page, whose requests go to /auth.
    await page.unroute(/\/login\?next=/);
    await logIn(page, t.server.url, t.server.account.email, t.server.password);
    await page.goto(`${t.server.url}/account/tokens`);
    t.server.clock.advanceSeconds(t.server.config.sessionTtlSeconds + 1);
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.waitForURL(`${t.server.url}/login?next=${encodeURIComponent('/account/tokens')}`);
    await page.getByLabel('E-mail').fill(t.server.account.email);
    await page.getByLabel('Password').fill(t.server.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${t.server.url}/account/tokens`);
    await context.close();
  });

  it('says each error once, and stops where nothing can be done', async () => {
    const { page, context } = await t.signedIn();

    // A ZIP that is neither a project folder nor a site: the failed checks are named once.
    await page.getByLabel(/ZIP file/).setInputFiles({
      name: 'notes.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(writeZip(new Map([['notes.txt', new TextEncoder().encode('hi')]]))),
    });
    await page.getByRole('button', { name: 'Open' }).click();
    const alert = page.locator('#open-result [role=alert]');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await timesShown(page, 'Failed checks:')).toBe(1);
    expect(await alert.locator('li.violation').count()).toBeGreaterThan(0);

    // An unknown project: one alert, said once, and none of the project's controls.
    await page.goto(`${t.server.url}/projects/${UNKNOWN}`);
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    expect(await page.getByRole('alert').innerText()).toBe('No such project.');
    expect(await timesShown(page, 'No such project.')).toBe(1);
    expect(await page.locator('#project-details').isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: 'Rename' }).isVisible()).toBe(false);

    // Its editor, and an editor at an id of no project at all: the error where the editor would
    // be, said once, no lock taken, no controls shown, and nothing more asked of the service.
    for (const id of [UNKNOWN, 'x']) {
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`${t.server.url}/projects/${id}/edit`);
      const root = page.locator('#editor-root');
      await expect.poll(() => root.innerText()).not.toBe('Opening the editor…');
      const said = await root.innerText();
      expect(said, id).toMatch(/^No such (project|resource)\.$/);
      expect(await timesShown(page, said)).toBe(1);
      expect(await page.locator('#lock-status').count()).toBe(0);
      expect(await tree(page).count()).toBe(0);
      expect(await page.getByRole('toolbar').count()).toBe(0);
      expect(await page.locator(PREVIEW).count()).toBe(0);
      await page.waitForTimeout(300);
      expect(
        requests.filter((url) => url.includes('/api/')).map((url) => new URL(url).pathname),
      ).toEqual([`/api/v1/projects/${id}`]);
      page.removeAllListeners('request');
    }
    await context.close();
  });
});
