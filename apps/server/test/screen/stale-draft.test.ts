// A draft left unsaved while another client saved the same page can never be saved: the editor
// says so and offers to start again from the saved page (found by a black-box audit, where the
// only way out was a new tab).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import {
  agentOf,
  button,
  editing,
  insertParagraph,
  noticeText,
  outlineHas,
  PREVIEW,
  SLOW_MS,
  tree,
} from './editor-helpers.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('screen: other clients’ saves and locks', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  /** A call of the editing interface as an agent with its own X-Editor-Client. */
  const agent = (method: string, path: string, json?: unknown) =>
    agentOf(t.server, 'agent-9')(method, path, json);

  it(
    'offers to drop the draft and start again from the saved page',
    async () => {
      const form = new FormData();
      form.set('zip', new Blob([plainSiteZip()]), 'site.zip');
      const created = await fetch(`${t.server.url}/api/v1/projects/folder`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.server.token}`, 'x-editor-client': 'setup' },
        body: form,
      });
      const project = (await created.json()) as { id: string };
      const pages = (await agent('GET', `/projects/${project.id}/pages`)) as {
        pages: Array<{ id: string; file: string }>;
      };
      const index = pages.pages.find((p) => p.file === 'index.html')!.id;

      const { page } = await t.signedIn();
      page.setDefaultTimeout(8000);
      const editorUrl = `${t.server.url}/projects/${project.id}/edit?page=${index}`;

      // An unsaved change, then the person leaves the editor (the lock is released).
      await editing(page, editorUrl);
      await insertParagraph(page, 'unsaved', 'Not saved yet.');
      await page.goto(`${t.server.url}/projects/${project.id}`);

      // Meanwhile an agent changes and saves the same page.
      await agent('PUT', `/projects/${project.id}/lock`, { kind: 'agent', label: 'bot' });
      const draft = (await agent('GET', `/pages/${index}/draft`)) as { draft_token: string };
      const operated = (await agent('POST', `/pages/${index}/operations`, {
        draft_token: draft.draft_token,
        operation: { kind: 'remove', target: '#intro' },
      })) as { draft_token: string };
      await agent('PUT', `/pages/${index}/operations`, {
        draft_token: operated.draft_token,
        commit_id: randomUUID(),
      });
      await agent('DELETE', `/projects/${project.id}/lock`);

      // Back in the editor (same tab, same client): the old draft is shown, and a dialog says at
      // once that it is older than the saved page, offering to drop it.
      await editing(page, editorUrl);
      await expect.poll(() => outlineHas(page, 'unsaved')).toBe(1);
      const stale = page.getByRole('dialog', { name: 'This draft is older than the saved page' });
      await expect.poll(() => stale.isVisible()).toBe(true);
      expect(await stale.textContent()).toMatch(/made on revision 1; .* now at revision 2\./);
      const drop = stale.getByRole('button', { name: 'Drop my changes' });
      // Put off, the choice goes, and the draft stays as it was.
      await stale.getByRole('button', { name: 'Decide later' }).click();
      await expect.poll(() => stale.isVisible()).toBe(false);
      expect(await outlineHas(page, 'unsaved')).toBe(1);

      // Saving it anyway: the service refuses (someone saved since), said next to Save, and the
      // choice is offered again.
      const saveButton = button(page, 'Save');
      expect(await saveButton.isDisabled()).toBe(false);
      await saveButton.click();
      await expect
        .poll(() => noticeText(page, 'toolbar'))
        .toContain('Someone saved this page meanwhile');
      await expect.poll(() => stale.isVisible()).toBe(true);
      // Save is no longer offered for a draft that can never be saved.
      expect(await saveButton.isDisabled()).toBe(true);
      expect(await page.locator('#save-state').textContent()).toMatch(/cannot be saved/);

      // Starting again shows the saved page (the agent's change, not the dropped draft) and saves.
      await drop.click();
      await expect
        .poll(() => noticeText(page, 'toolbar'))
        .toBe('Started again from the saved page.');
      await expect.poll(() => outlineHas(page, 'unsaved')).toBe(0);
      expect(await outlineHas(page, 'intro')).toBe(0);
      expect(await stale.isVisible()).toBe(false);
      await insertParagraph(page, 'again', 'Saved this time.');
      expect(await saveButton.isDisabled()).toBe(false);
      await saveButton.click();
      await expect.poll(() => noticeText(page, 'toolbar')).toMatch(/^Saved as revision \d+\.$/);

      // An editor asked for a page the project does not have says so where the editor would be,
      // once, and shows nothing to edit with.
      await page.goto(`${t.server.url}/projects/${project.id}/edit?page=pg_nosuchpage`);
      const root = page.locator('#editor-root');
      await expect.poll(() => root.innerText()).toBe('This project has no such page.');
      expect(await page.locator('main').innerText()).toContain('This project has no such page.');
      expect(await tree(page).count()).toBe(0);
      expect(await page.getByRole('toolbar').count()).toBe(0);
      expect(await page.locator(PREVIEW).count()).toBe(0);

      // Under an agent's lock, a refused confirmation says that nothing was done.
      await agent('PUT', `/projects/${project.id}/lock`, { kind: 'agent', label: 'bot' });
      await page.goto(`${t.server.url}/projects/${project.id}`);
      await page.getByRole('button', { name: /^Confirm revision/ }).click();
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Not done' }).textContent())
        .toMatch(/^Not done: .* is editing \(bot\)\. Try again once the lock is released\.$/);
      await agent('DELETE', `/projects/${project.id}/lock`);
    },
    SLOW_MS,
  );
});
