import { readFile } from 'node:fs/promises';
import { readZip } from '@galley/core';
import { sha256Hex } from '@galley/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, screenshot, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import {
  button,
  insertHtml,
  noticeText,
  outlineHas,
  previewOf,
  problemItems,
  rowOf,
  selectedRow,
  SLOW_MS,
  tree,
} from './editor-helpers.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('screen: open a site, edit a page, check before saving, confirm', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it(
    'takes a person from a site ZIP to a confirmed version they can download',
    async () => {
      const { page, context, problems } = await t.person();
      page.setDefaultTimeout(8000);
      const writes: string[] = [];
      page.on('request', (r) => {
        if (r.method() !== 'GET') writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
      });
      await logIn(page, t.server.url, t.server.account.email, t.server.password);

      // Open a plain site: the conversion report lists pages, ignored files and warnings.
      await page.getByLabel(/ZIP file/).setInputFiles({
        name: 'harbour-site.zip',
        mimeType: 'application/zip',
        buffer: Buffer.from(plainSiteZip()),
      });
      await page.getByRole('button', { name: 'Open' }).click();
      const opened = page.locator('#open-result');
      await expect.poll(() => opened.textContent()).toContain('Opened Harbour Café');
      const report = (await opened.textContent())!;
      expect(report).toContain('index.html → /');
      expect(report).toContain('about.html → /about.html');
      expect(report).toContain('notes.psd');
      expect(report).toContain('site.link_removed');
      await expect.poll(() => page.locator('#project-list tbody tr').count()).toBe(1);
      await screenshot(page, 'projects');

      // The project page, then the editor of index.html, which takes the lock.
      await opened.getByRole('link', { name: 'Harbour Café' }).click();
      await page.getByRole('link', { name: 'Edit index.html' }).click();
      await page.waitForURL(/\/edit\?page=/);
      await expect
        .poll(() => page.locator('#lock-status').textContent())
        .toContain('You are editing');
      await expect.poll(() => outlineHas(page, 'intro')).toBe(1);
      const preview = previewOf(page);
      await expect.poll(() => preview.locator('#intro').count()).toBe(1);

      // Two operations and an undo; the preview follows the draft. The element chosen in the
      // outline is the one the Element panel shows, and where the palette inserts.
      await rowOf(page, 'content').click();
      await expect.poll(() => page.getByLabel('id', { exact: true }).inputValue()).toBe('content');
      await insertHtml(page, '<p id="hours">Open daily, 7 to 18.</p>', { at: 'content' });
      await expect.poll(() => outlineHas(page, 'hours')).toBe(1);
      await preview.locator('#hours').click();
      await expect.poll(() => selectedRow(page).textContent()).toContain('#hours');
      await button(page, 'Duplicate').click();
      await expect.poll(() => outlineHas(page, 'hours-2')).toBe(1);
      await button(page, 'Undo').click();
      await expect.poll(() => outlineHas(page, 'hours-2')).toBe(0);
      expect(await outlineHas(page, 'hours')).toBe(1);
      await expect.poll(() => preview.locator('#content > #hours').count()).toBe(1);
      await expect.poll(() => preview.locator('#hours-2').count()).toBe(0);

      // A link to a missing file: the local checks find it as the person edits, and block the
      // save before any request is sent.
      await insertHtml(page, '<p id="broken">Our <a href="missing.html">old menu</a></p>', {
        at: 'content',
      });
      await expect.poll(() => outlineHas(page, 'broken')).toBe(1);
      const problemsPanel = page.locator('#problems');
      await expect.poll(() => problemItems(page).count()).toBe(1);
      expect(await problemsPanel.textContent()).toContain('as you edit');
      const savesBefore = writes.filter((w) => w.startsWith('PUT /api/v1/pages/')).length;
      await button(page, 'Save').click();
      await expect
        .poll(() => noticeText(page, 'toolbar'))
        .toBe('Not saved: 1 problem must be fixed first; each is marked on its element.');
      expect(await problemItems(page).count()).toBe(1);
      const problem = (await problemItems(page).textContent())!;
      expect(problem).toContain('The reference names a file that is not in the folder.');
      // The reference as written and as resolved read the same: named once, as found.
      expect(problem).not.toMatch(/Expected:? missing\.html/);
      expect(problem).toContain('Found: missing.html.');
      expect(await problemsPanel.textContent()).toMatch(/before anything was sent/);
      // The problem is marked on its element in the outline (the link, in the new paragraph).
      const marked = tree(page).getByRole('treeitem').filter({ hasText: 'problem(s)' });
      await expect.poll(() => marked.count()).toBe(1);
      expect(await marked.textContent()).toContain('old menu');
      expect(writes.filter((w) => w.startsWith('PUT /api/v1/pages/')).length).toBe(savesBefore);
      await expect.poll(() => preview.locator('#broken').count()).toBe(1);
      await screenshot(page, 'editor-local-violation');

      // Fix it (select the paragraph in the preview, remove it): the problems go at once; then the
      // save goes through.
      await preview.locator('#broken').click({ position: { x: 5, y: 5 } });
      await expect.poll(() => selectedRow(page).textContent()).toContain('#broken');
      await button(page, 'Remove').click();
      await expect.poll(() => problemItems(page).count()).toBe(0);
      expect(await problemsPanel.getByRole('heading').textContent()).toContain('(none)');
      await button(page, 'Save').click();
      await expect.poll(() => noticeText(page, 'toolbar')).toBe('Saved as revision 2.');
      expect(writes.filter((w) => w.startsWith('PUT /api/v1/pages/')).length).toBe(savesBefore + 1);
      await expect.poll(() => preview.locator('#broken').count()).toBe(0);
      await screenshot(page, 'editor');

      // Confirm the saved revision, then download the confirmed ZIP: its SHA-256 is the one shown.
      await page.getByRole('link', { name: '← Project' }).click();
      await page.getByLabel('Note (optional)').fill('Opening hours added');
      await page.getByRole('button', { name: 'Confirm revision 2' }).click();
      const row = page.locator('#confirmation-list tr[data-version="1"]');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('Opening hours added');
      await expect
        .poll(() => page.locator('#project-badges').textContent())
        .toContain('version 1 is current');
      const shownSha = (await row.locator('code.sha').textContent())!;
      expect(shownSha).toMatch(/^[0-9a-f]{64}$/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: 'Download version 1' }).click(),
      ]);
      const zip = await readFile(await download.path());
      expect(sha256Hex(zip)).toBe(shownSha);
      const confirmed = readZip(new Uint8Array(zip)).folder.get('index.html');
      expect(new TextDecoder().decode(confirmed)).toContain('Open daily, 7 to 18.');

      // A rename is an unconfirmed change; undoing it in the history makes it go away again.
      await page.getByLabel('Title', { exact: true }).fill('Harbour Café & Bakery');
      await page.getByRole('button', { name: 'Rename' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Harbour Café & Bakery');
      await expect
        .poll(() => page.locator('#project-badges').textContent())
        .toContain('Unconfirmed changes');
      await screenshot(page, 'project');
      await page.getByRole('button', { name: 'Undo the last change' }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^Undo revision/ })
        .click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Harbour Café');
      await expect
        .poll(() => page.locator('#project-badges').textContent())
        .toContain('version 1 is current');
      expect(await page.locator('#history-list').textContent()).toContain('undo');

      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );
});
