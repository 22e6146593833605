import { readFile } from 'node:fs/promises';
import { readZip, writeZip } from '@galley/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { SLOW_MS } from './editor-helpers.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('screen: projects, members and roles, by keyboard too', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it('logs in with the keyboard alone, with a visible focus on every stop', async () => {
    const { page, context } = await t.person();
    await page.goto(`${t.server.url}/login`);
    const stops: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      stops.push(
        await page.evaluate<string>(
          'document.activeElement.id || document.activeElement.textContent.trim()',
        ),
      );
      expect(
        await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle'),
      ).not.toBe('none');
    }
    expect(stops).toEqual(['Skip to the content', 'login-email', 'login-password']);
    await page.keyboard.type(t.server.password);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type(t.server.account.email);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/projects$/);
    await context.close();
  });

  it('shows why a folder is refused', async () => {
    const { page, context } = await t.signedIn();
    const broken = writeZip(
      new Map([['project.json', new TextEncoder().encode('{"format": 1, "title": "x"}')]]),
    );
    await page.getByLabel(/ZIP file/).setInputFiles({
      name: 'broken.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(broken),
    });
    await page.getByRole('button', { name: 'Open' }).click();
    const alert = page.locator('#open-result [role=alert]');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toMatch(/Failed checks: .*project/);
    expect(await alert.locator('li[data-code^="project."]').count()).toBeGreaterThan(0);
    await context.close();
  });

  // Two people, an export, members, the editor and a deletion: a long flow on a loaded host.
  it(
    'lets an owner export, manage members and delete; a viewer only reads',
    async () => {
      const bob = await t.server.addAccount('bea@example.org', 'Bea');
      const ada = await t.signedIn();
      await ada.page.getByLabel(/ZIP file/).setInputFiles({
        name: 'site.zip',
        mimeType: 'application/zip',
        buffer: Buffer.from(plainSiteZip()),
      });
      await ada.page.getByRole('button', { name: 'Open' }).click();
      await ada.page.locator('#open-result').getByRole('link', { name: 'Harbour Café' }).click();
      const projectUrl = ada.page.url();

      // Export: the saved folder as a ZIP attachment.
      const [download] = await Promise.all([
        ada.page.waitForEvent('download'),
        ada.page.getByRole('link', { name: 'Export the folder as ZIP' }).click(),
      ]);
      const exported = readZip(new Uint8Array(await readFile(await download.path())));
      expect([...exported.folder.keys()].sort()).toEqual([
        'about.html',
        'index.html',
        'project.json',
        'style.css',
      ]);

      // Members: add Bea as an editor, then lower her to viewer with the row's role control.
      await ada.page.getByLabel('E-mail of the account').fill('bea@example.org');
      await ada.page.getByLabel('Role', { exact: true }).selectOption('editor');
      await ada.page.getByRole('button', { name: 'Save member' }).click();
      const beaRow = ada.page.locator('#member-list tr', { hasText: 'bea@example.org' });
      await expect.poll(() => beaRow.count()).toBe(1);
      await beaRow.getByLabel('Role of Bea').selectOption('viewer');
      await beaRow.getByRole('button', { name: 'Save role for Bea' }).click();
      await expect
        .poll(() => ada.page.locator('#project-status').textContent())
        .toContain('viewer');
      // The last owner cannot be lowered: the service's 422 is shown.
      const adaRow = ada.page.locator('#member-list tr', { hasText: 'ada@example.org' });
      await adaRow.getByLabel('Role of Ada').selectOption('editor');
      await adaRow.getByRole('button', { name: 'Save role for Ada' }).click();
      await expect.poll(() => ada.page.locator('#project-error').textContent()).toMatch(/owner/i);

      // Bea, a viewer: no rename, confirm or delete; the editor is read-only and says why.
      const bea = await t.person();
      await logIn(bea.page, t.server.url, 'bea@example.org', bob.password);
      await bea.page.goto(projectUrl);
      await expect
        .poll(() => bea.page.locator('#project-summary').textContent())
        .toContain('viewer');
      expect(await bea.page.locator('#rename-form').isHidden()).toBe(true);
      expect(await bea.page.locator('#confirm-form').isHidden()).toBe(true);
      expect(await bea.page.locator('#delete-section').isHidden()).toBe(true);
      expect(await bea.page.locator('#member-form').isHidden()).toBe(true);
      await bea.page.goto(`${projectUrl}/edit`);
      await expect.poll(() => bea.page.locator('#lock-status').textContent()).toContain('viewer');
      expect(await bea.page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(
        true,
      );

      // Bea leaves; Ada deletes the project.
      await bea.page.goto(projectUrl);
      await bea.page.getByRole('button', { name: 'Leave the project' }).click();
      await bea.page.getByRole('dialog').getByRole('button', { name: 'Leave the project' }).click();
      await bea.page.waitForURL(/\/projects$/);
      await ada.page.reload();
      await expect.poll(() => ada.page.locator('#member-list tbody tr').count()).toBe(1);
      await ada.page.getByRole('button', { name: 'Delete project…' }).click();
      await ada.page.getByRole('dialog').getByRole('button', { name: 'Delete project' }).click();
      await ada.page.waitForURL(/\/projects$/);
      await expect
        .poll(() => ada.page.locator('#project-list').textContent())
        .not.toContain('Harbour');
      await ada.context.close();
      await bea.context.close();
    },
    SLOW_MS,
  );
});
