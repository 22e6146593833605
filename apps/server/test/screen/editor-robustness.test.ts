// The editor as a black-box audit (s6) used it: Back after a few changes, a double-clicked or
// empty save, a server restart under an open editor, a duplicated tab; and long titles.
import { writeZip } from '@galley/core';
import { startServer } from '@galley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openSite, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import {
  button,
  EDITOR_CLIENT_KEY,
  holdFirstOperation,
  indexEditor,
  serverDraftBody,
  editing,
  insertHtml,
  insertParagraph,
  notice,
  noticesShown,
  noticeText,
  outlineHas,
  previewFrame,
  previewOf,
  PREVIEW,
  rowOf,
  SLOW_MS,
} from './editor-helpers.js';
import { page as sitePage, plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('screen: the editor under Back, double-clicks, restarts, copies', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it(
    'leaves the editor with one Back after changes (the preview adds no history)',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.signedIn();
      const project = `${t.server.url}/projects/${site.id}`;
      await page.goto(project);
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      await expect.poll(() => preview.locator('#intro').count()).toBe(1);
      const before = await page.evaluate<number>('history.length');
      for (const id of ['n1', 'n2', 'n3']) {
        await insertParagraph(page, id);
        await expect.poll(() => preview.locator(`#${id}`).count()).toBe(1);
      }
      expect(await page.evaluate<number>('history.length')).toBe(before);
      await page.goBack();
      expect(page.url()).toBe(project);
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'saves once on a double-click, and offers no save without a change',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.person();
      const saves: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && /\/api\/v1\/pages\/[^/]+\/operations$/.test(r.url()))
          saves.push(r.url());
      });
      await logIn(page, t.server.url, t.server.account.email, t.server.password);
      await editing(page, indexEditor(site));
      const save = button(page, 'Save');
      const nothing = 'Nothing to save: no change since the saved page.';

      // A draft with no change since the saved page: Save is off, and says why.
      expect(await save.isDisabled()).toBe(true);
      expect(await save.getAttribute('title')).toBe(nothing);
      expect(await page.locator('#save-state').textContent()).toBe('Nothing to save.');

      // A change, then a double-click: one save, one revision; then nothing to save again.
      const toolbarHeight = () =>
        page.evaluate<number>(`document.querySelector('.editor-toolbar').clientHeight`);
      const before = await toolbarHeight();
      await insertParagraph(page, 'once');
      expect(await save.isEnabled()).toBe(true);
      expect(await page.locator('#save-state').textContent()).toBe('');
      // The toolbar keeps its height as the reason comes and goes (what is typed into stays in
      // view below it).
      expect(await toolbarHeight()).toBe(before);
      await save.dblclick();
      await expect.poll(() => noticeText(page, 'toolbar')).toBe('Saved as revision 2.');
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

      // Ctrl+S with nothing to save sends nothing either, and says why next to Save.
      await rowOf(page, 'once').click();
      await page.keyboard.press('Control+s');
      await expect.poll(() => noticeText(page, 'toolbar')).toBe(nothing);
      expect(saves).toHaveLength(1);

      // An undo back to the saved page leaves nothing to save either.
      await insertParagraph(page, 'undone');
      expect(await save.isEnabled()).toBe(true);
      await button(page, 'Undo').click();
      await expect.poll(() => outlineHas(page, 'undone')).toBe(0);
      await expect.poll(() => save.isDisabled()).toBe(true);
      expect(saves).toHaveLength(1);
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'makes a duplicated tab another client, and says when a change was overtaken',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context } = await t.signedIn();
      await editing(page, indexEditor(site));
      const client = await page.evaluate<string>(`sessionStorage.getItem('${EDITOR_CLIENT_KEY}')`);
      expect(client).toMatch(/^screen-/);

      // A duplicate of the tab (same browser, a copy of its sessionStorage) is read-only.
      const copy = await context.newPage();
      copy.setDefaultTimeout(10_000);
      await copy.addInitScript(
        `if (!sessionStorage.getItem('${EDITOR_CLIENT_KEY}')) sessionStorage.setItem('${EDITOR_CLIENT_KEY}', '${client}');`,
      );
      await copy.goto(indexEditor(site));
      const copyStatus = copy.locator('#lock-status');
      await expect.poll(() => copyStatus.textContent()).toMatch(/^Read-only: /);
      expect(await copyStatus.textContent()).toContain('(Ada on the editing screen)');
      // Nothing to change the page with: the toolbar's actions and the palette are off.
      await previewFrame(copy);
      await copy.getByText('Raw HTML').click();
      expect(await copy.getByLabel('HTML to insert').isDisabled()).toBe(true);
      for (const name of ['Undo', 'Redo', 'Save', 'Paragraph', 'Insert HTML'])
        expect(await button(copy, name).isDisabled(), name).toBe(true);
      await rowOf(copy, 'intro').click();
      for (const name of ['Move up', 'Move down', 'Duplicate', 'Remove'])
        expect(await button(copy, name).isDisabled(), name).toBe(true);
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
      await insertHtml(page, '<p id="mine">mine</p>', { at: 'content' });
      // Said next to the palette the change came from, as an alert.
      const result = notice(page, 'palette');
      await expect.poll(() => noticeText(page, 'palette')).toMatch(/changed elsewhere/);
      expect(await result.getAttribute('role')).toBe('alert');
      expect(await result.textContent()).toMatch(/Make the change again if it is still needed\.$/);
      expect(await result.textContent()).not.toContain('GET the draft');
      await expect.poll(() => outlineHas(page, 'elsewhere')).toBe(1);
      expect(await outlineHas(page, 'mine')).toBe(0);
      const preview = previewOf(page);
      await expect.poll(() => preview.locator('#elsewhere').count()).toBe(1);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'keeps long titles within the window, and names the page and project in the editor',
    async () => {
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
      await editing(page, indexEditor(site));
      expect(await page.title()).toBe(`index.html in ${long} · Galley`);
      expect(await page.locator('h1').textContent()).toBe(`Editing index.html in ${long}`);
      expect(await fits()).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

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

  // The forms of the old screen marked the field a refusal named (aria-invalid); the visual editor
  // has no such fields: a refusal is said next to the action that was refused, in a person's words.
  it(
    'says a refusal next to the action refused, one at a time, and drops it once a change is made',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.signedIn();
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.method() !== 'GET' && r.url().includes('/api/v1/pages/'))
          sent.push(`${r.method()} ${new URL(r.url()).pathname.replace(/^.*\//, '')}`);
      });
      await editing(page, indexEditor(site));
      const notWellFormed = 'The HTML is not well formed: check that every tag is closed.';
      // HTML without its end tag, from the palette: refused in the browser, nothing sent, said
      // at the palette.
      await insertHtml(page, '<p id="unclosed">No end tag', { at: 'content' });
      await expect.poll(() => noticesShown(page)).toEqual([`palette: ${notWellFormed}`]);
      expect(await notice(page, 'palette').getAttribute('role')).toBe('alert');
      expect(await outlineHas(page, 'unclosed')).toBe(0);
      // A refusal of another action (the element's HTML, in the Element panel) replaces that
      // message rather than adding to it.
      await rowOf(page, 'intro').click();
      await page.getByText("Edit the element's HTML").click();
      await page.getByLabel('HTML of the element').fill('<p id="intro">Fresh bread');
      await button(page, 'Replace the element').click();
      await expect.poll(() => noticesShown(page)).toEqual([`inspector: ${notWellFormed}`]);
      expect(sent).toEqual([]);
      // A change made through a third part of the screen: no refusal is on show any more.
      await insertParagraph(page, 'marked');
      await expect.poll(() => noticesShown(page)).toEqual([]);
      expect(sent).toEqual(['POST operations']);
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'keeps an undo pressed while the removal it undoes is still on its way to the server',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.signedIn();
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      await rowOf(page, 'intro').click();
      // The removal's request is held until Ctrl+Z has been pressed: the removal is shown at
      // once, its answer comes after the undo.
      const { release } = await holdFirstOperation(page);
      await page.keyboard.press('Delete');
      await expect.poll(() => preview.locator('#intro').count()).toBe(0);
      await page.keyboard.press('Control+z');
      release();
      await expect.poll(() => noticeText(page, 'toolbar')).toBe('Undone.');
      expect(await preview.locator('#intro').count()).toBe(1);
      // Both reached the server, in order: the removal, then its undo, which undid it there (the
      // removal can be redone, nothing is left to undo).
      await expect
        .poll(async () => {
          const draft = await serverDraftBody(t.server, page, site.index);
          return {
            intro: draft.html.includes('id="intro"'),
            undo: draft.can_undo,
            redo: draft.can_redo,
          };
        })
        .toEqual({ intro: true, undo: false, redo: true });
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  // Last: the server is replaced by another process (another preview key) on the same port.
  it(
    'shows the preview again after the server restarts',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.signedIn();
      // The preview is posted anew every 10 minutes (its pass lives 15): a fake clock brings
      // that on.
      await page.clock.install();
      await editing(page, indexEditor(site));
      await insertParagraph(page, 'before-restart');
      const preview = previewOf(page);
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
        await insertParagraph(page, 'after-restart');
        await expect.poll(() => preview.locator('#after-restart').count()).toBe(1);
        // The next post of the preview carries the pass the editor page got, signed by the stopped
        // process: it is renewed, and the page is shown again with its style sheet.
        // (Each post goes into a new frame, with a name of its own.)
        const posted = await page.locator(PREVIEW).getAttribute('name');
        await page.clock.fastForward('10:01');
        await expect.poll(() => page.locator(PREVIEW).getAttribute('name')).not.toBe(posted);
        await expect.poll(() => preview.locator('#after-restart').count()).toBe(1);
        expect(await preview.locator('#intro').count()).toBe(1);
        const frame = await previewFrame(page);
        await expect
          .poll(() =>
            frame.evaluate<string>("getComputedStyle(document.getElementById('title')).color"),
          )
          .toBe('rgb(0, 128, 128)');
        // The fake clock's own script is refused in the sandboxed preview (it runs none); nothing
        // else is logged.
        const clockInPreview = new RegExp(
          "^Blocked script execution in '(about:blank|[^']+/preview/[^']+)' " +
            "because the document's frame is sandboxed",
        );
        expect(problems.filter((p) => !clockInPreview.test(p))).toEqual([]);
      } finally {
        await context.close();
        await restarted.close();
      }
    },
    SLOW_MS,
  );
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
