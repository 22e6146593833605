import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { readZip } from '@galley/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, screenshot, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

const outlineHas = (page: Page, id: string) =>
  page.locator('#outline button', { hasText: `#${id}` }).count();

describe.skipIf(!!why)('screen: open a site, edit a page, check before saving, confirm', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it('takes a person from a site ZIP to a confirmed version they can download', async () => {
    const { page, context, problems } = await t.person();
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
    await expect.poll(() => page.locator('#edit-controls').getAttribute('disabled')).toBeNull();
    await expect.poll(() => outlineHas(page, 'intro')).toBe(1);

    // Two operations and an undo; the preview follows the draft.
    await page.locator('#outline button', { hasText: '#content' }).click();
    expect(await page.locator('#op-insert-parent').inputValue()).toBe('#content');
    await page.locator('#op-insert-html').fill('<p id="hours">Open daily, 7 to 18.</p>');
    await page.getByRole('button', { name: 'Insert', exact: true }).click();
    await expect.poll(() => outlineHas(page, 'hours')).toBe(1);
    await page.locator('#op-duplicate-target').fill('#hours');
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await expect.poll(() => outlineHas(page, 'hours-2')).toBe(1);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => outlineHas(page, 'hours-2')).toBe(0);
    expect(await outlineHas(page, 'hours')).toBe(1);
    const preview = page.frameLocator('#preview-frame');
    await expect.poll(() => preview.locator('#hours').count()).toBe(1);
    await expect.poll(() => preview.locator('#hours-2').count()).toBe(0);

    // A link to a missing file: the local checks block the save before any request is sent.
    await page.locator('#op-insert-parent').fill('#content');
    await page
      .locator('#op-insert-html')
      .fill('<p id="broken">Our <a href="missing.html">old menu</a></p>');
    await page.getByRole('button', { name: 'Insert', exact: true }).click();
    await expect.poll(() => outlineHas(page, 'broken')).toBe(1);
    const savesBefore = writes.filter((w) => w.startsWith('PUT /api/v1/pages/')).length;
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const violations = page.locator('#violations');
    await expect.poll(() => violations.isVisible()).toBe(true);
    expect(await violations.textContent()).toContain('links.missing');
    // The reference as written and as resolved read the same: named once, as found.
    expect(await violations.textContent()).not.toMatch(/Expected missing\.html/);
    expect(await violations.textContent()).toContain('Found missing.html.');
    expect(await page.locator('#violations-source').textContent()).toMatch(
      /before anything was sent/,
    );
    const marked = page.locator('#outline li.has-problem');
    await expect.poll(() => marked.count()).toBe(1);
    expect(await marked.textContent()).toContain('old menu');
    expect(writes.filter((w) => w.startsWith('PUT /api/v1/pages/')).length).toBe(savesBefore);
    await expect.poll(() => preview.locator('#broken').count()).toBe(1);
    await screenshot(page, 'editor-local-violation');

    // Fix it (remove the paragraph): the problems go at once; then the save goes through.
    await page.locator('#op-remove-target').fill('#broken');
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => violations.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => page.locator('#edit-result').textContent())
      .toBe('Saved as revision 2.');
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
    expect(createHash('sha256').update(zip).digest('hex')).toBe(shownSha);
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
    await page.getByRole('dialog').getByRole('button', { name: /^Undo revision/ }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Harbour Café');
    await expect
      .poll(() => page.locator('#project-badges').textContent())
      .toContain('version 1 is current');
    expect(await page.locator('#history-list').textContent()).toContain('undo');

    expect(problems).toEqual([]);
    await context.close();
  });
});
