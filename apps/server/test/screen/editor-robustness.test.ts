// The editor as a black-box audit (s6) used it: Back after a few changes, a double-clicked or
// empty save, a server restart under an open editor, a duplicated tab; and long titles.
import { writeZip } from '@galley/core';
import { startServer } from '@galley/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openSite, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { page as sitePage, plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

const EDITOR_CLIENT_KEY = 'galley.editor-client';

const outlineHas = (page: Page, id: string) =>
  page.locator('#outline button', { hasText: `#${id}` }).count();

/** Opens the editor and waits until this tab holds the lock and its draft is open. */
async function editing(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect.poll(() => page.locator('#lock-status').textContent()).toContain('You are editing');
  await expect.poll(() => page.locator('#edit-controls').getAttribute('disabled')).toBeNull();
}

/** Inserts a paragraph with `id` into #content through the form, and waits for the outline. */
async function insert(page: Page, id: string): Promise<void> {
  await page.locator('#op-insert-parent').fill('#content');
  await page.locator('#op-insert-html').fill(`<p id="${id}">${id}</p>`);
  await page.getByRole('button', { name: 'Insert', exact: true }).click();
  await expect.poll(() => outlineHas(page, id)).toBe(1);
}

describe.skipIf(!!why)('screen: the editor under Back, double-clicks, restarts, copies', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  const editorOf = (site: { id: string; index: string }) =>
    `${t.server.url}/projects/${site.id}/edit?page=${site.index}`;

  it('leaves the editor with one Back after changes (the preview adds no history)', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context, problems } = await t.signedIn();
    const project = `${t.server.url}/projects/${site.id}`;
    await page.goto(project);
    await editing(page, editorOf(site));
    const preview = page.frameLocator('#preview-frame');
    await expect.poll(() => preview.locator('#intro').count()).toBe(1);
    const before = await page.evaluate<number>('history.length');
    for (const id of ['n1', 'n2', 'n3']) {
      await insert(page, id);
      await expect.poll(() => preview.locator(`#${id}`).count()).toBe(1);
    }
    expect(await page.evaluate<number>('history.length')).toBe(before);
    await page.goBack();
    expect(page.url()).toBe(project);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('saves once on a double-click, and offers no save without a change', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context, problems } = await t.person();
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && /\/api\/v1\/pages\/[^/]+\/operations$/.test(r.url()))
        saves.push(r.url());
    });
    await logIn(page, t.server.url, t.server.account.email, t.server.password);
    await editing(page, editorOf(site));
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const nothing = 'Nothing to save: no change since the saved page.';

    // A draft with no change since the saved page: Save is off, and says why.
    expect(await save.isDisabled()).toBe(true);
    expect(await save.getAttribute('title')).toBe(nothing);
    expect(await page.locator('#save-state').textContent()).toBe(nothing);

    // A change, then a double-click: one save, one revision; then nothing to save again.
    await insert(page, 'once');
    expect(await save.isEnabled()).toBe(true);
    expect(await page.locator('#save-state').textContent()).toBe('');
    await save.dblclick();
    await expect
      .poll(() => page.locator('#edit-result').textContent())
      .toBe('Saved as revision 2.');
    await expect.poll(() => save.isDisabled()).toBe(true);
    expect(await save.getAttribute('title')).toBe(nothing);
    expect(saves).toHaveLength(1);
    const history = (await (
      await fetch(`${t.server.url}/api/v1/projects/${site.id}/history`, {
        headers: { authorization: `Bearer ${t.server.token}` },
      })
    ).json()) as { revision: number; entries: { kind: string }[] };
    expect(history.revision).toBe(2);
    expect(history.entries.filter((e) => e.kind === 'save')).toHaveLength(1);

    // An undo back to the saved page leaves nothing to save either.
    await insert(page, 'undone');
    expect(await save.isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => outlineHas(page, 'undone')).toBe(0);
    await expect.poll(() => save.isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('makes a duplicated tab another client, and says when a change was overtaken', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context } = await t.signedIn();
    await editing(page, editorOf(site));
    const client = await page.evaluate<string>(`sessionStorage.getItem('${EDITOR_CLIENT_KEY}')`);
    expect(client).toMatch(/^screen-/);

    // A duplicate of the tab (same browser, a copy of its sessionStorage) is read-only.
    const copy = await context.newPage();
    await copy.addInitScript(
      `if (!sessionStorage.getItem('${EDITOR_CLIENT_KEY}')) sessionStorage.setItem('${EDITOR_CLIENT_KEY}', '${client}');`,
    );
    await copy.goto(editorOf(site));
    await expect
      .poll(() => copy.locator('#lock-status').textContent())
      .toContain('Read-only: “Ada on the editing screen”');
    expect(await copy.locator('#edit-controls').getAttribute('disabled')).toBe('');
    const own = await copy.evaluate<string>(`sessionStorage.getItem('${EDITOR_CLIENT_KEY}')`);
    expect(own).toMatch(/^screen-/);
    expect(own).not.toBe(client);
    expect(await page.locator('#lock-status').textContent()).toContain('You are editing');
    await copy.close();

    // Another client under the same editor client id (as two copies loaded at once would be)
    // changes the draft: this tab's next change is refused, said plainly, and the tab shows the
    // draft as it now is.
    const api = (method: string, path: string, json?: unknown) =>
      fetch(`${t.server.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${t.server.token}`,
          'x-editor-client': client,
          'content-type': 'application/json',
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    const draft = (await (await api('GET', `/pages/${site.index}/draft`)).json()) as {
      draft_token: string;
    };
    const elsewhere = await api('POST', `/pages/${site.index}/operations`, {
      draft_token: draft.draft_token,
      operation: { kind: 'insert', parent: '#content', html: '<p id="elsewhere">x</p>' },
    });
    expect(elsewhere.status).toBe(200);
    await page.locator('#op-insert-parent').fill('#content');
    await page.locator('#op-insert-html').fill('<p id="mine">mine</p>');
    await page.getByRole('button', { name: 'Insert', exact: true }).click();
    const result = page.locator('#edit-result');
    await expect.poll(() => result.textContent()).toMatch(/^Your change was not applied/);
    expect(await result.textContent()).not.toContain('GET the draft');
    await expect.poll(() => outlineHas(page, 'elsewhere')).toBe(1);
    expect(await outlineHas(page, 'mine')).toBe(0);
    const preview = page.frameLocator('#preview-frame');
    await expect.poll(() => preview.locator('#elsewhere').count()).toBe(1);
    await context.close();
  });

  it('keeps long titles within the window, and names the page and project in the editor', async () => {
    const long = 'W'.repeat(200);
    const zip = writeZip(
      new Map([
        [
          'index.html',
          new TextEncoder().encode(sitePage(long, `<main id="content"><p>${long}</p></main>`)),
        ],
        ['style.css', new TextEncoder().encode('body { margin: 0; }')],
      ]),
    );
    const site = await openSite(t, zip);
    const renamed = await renameOverApi(t, site.id, long);
    expect(renamed.status).toBe(200);
    const { page, context, problems } = await t.signedIn();
    const fits = () =>
      page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

    await expect.poll(() => page.locator('#project-list tbody tr').count()).toBeGreaterThan(0);
    expect(await fits()).toBe(true);
    await page.goto(`${t.server.url}/projects/${site.id}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(long);
    await expect.poll(() => page.locator('#history-list td', { hasText: long }).count()).toBe(1);
    expect(await fits()).toBe(true);
    await editing(page, editorOf(site));
    expect(await page.title()).toBe(`index.html in ${long} · Galley`);
    expect(await page.locator('h1').textContent()).toBe(`Editing index.html in ${long}`);
    expect(await fits()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a refused rename at the form, with its reason, and drops the old success', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context } = await t.signedIn();
    await page.goto(`${t.server.url}/projects/${site.id}`);
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('Harbour');
    await page.getByRole('button', { name: 'Rename' }).click();
    const status = page.locator('#project-status');
    await expect.poll(() => status.textContent()).toBe('Renamed.');

    // The reason the service gives for the field, not only its name.
    const refused = await renameOverApi(t, site.id, 'tab\there');
    const { errors } = (await refused.json()) as { errors: { title: string[] } };
    await title.fill('tab\there');
    await page.getByRole('button', { name: 'Rename' }).click();
    const error = page.locator('#project-error');
    await expect.poll(() => error.isVisible()).toBe(true);
    expect(await error.innerText()).toContain(`title: ${errors.title.join('; ')}.`);
    expect(await status.textContent()).toBe('');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe(
      'project-error',
    );
    await context.close();
  });

  it('marks the fields a refusal names, and drops the marks once a change is made', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context } = await t.signedIn();
    await editing(page, editorOf(site));
    const invalid = () =>
      page.evaluate<string[]>(
        `[...document.querySelectorAll('form[data-kind] [aria-invalid="true"]')].map((e) => e.id)`,
      );
    // A remove of an element the page does not have: its target is at fault.
    await page.locator('#op-remove-target').fill('#no-such-element');
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(invalid).toEqual(['op-remove-target']);
    // A refusal in another form replaces that mark rather than adding to it.
    await page.locator('#op-duplicate-target').fill('#nowhere');
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await expect.poll(invalid).toEqual(['op-duplicate-target']);
    // A change made through a third form: no field is at fault any more.
    await insert(page, 'marked');
    expect(await invalid()).toEqual([]);
    await context.close();
  });

  // Last: the server is replaced by another process (another preview key) on the same port.
  it('shows the preview again after the server restarts', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, context, problems } = await t.signedIn();
    await editing(page, editorOf(site));
    await insert(page, 'before-restart');
    const preview = page.frameLocator('#preview-frame');
    await expect.poll(() => preview.locator('#before-restart').count()).toBe(1);

    const { port } = new URL(t.server.url);
    await t.server.server.close();
    const restarted = await startServer({
      store: t.server.store,
      clock: t.server.clock,
      config: t.server.config,
      host: '127.0.0.1',
      port: Number(port),
      baseUrlFromListen: true,
    });
    try {
      // The pass the editor page got was signed by the stopped process.
      await insert(page, 'after-restart');
      await expect.poll(() => preview.locator('#after-restart').count()).toBe(1);
      expect(await preview.locator('#intro').count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await restarted.close();
    }
  });
});

/** Renames a project through the editing interface, as another client would. */
function renameOverApi(t: ScreenTest, id: string, title: string): Promise<Response> {
  return fetch(`${t.server.url}/api/v1/projects/${id}`, {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${t.server.token}`,
      'x-editor-client': 'test-setup',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ title }),
  });
}
