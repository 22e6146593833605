// The visual editor, as a person uses it: pointing in the preview, the outline tree, the keys,
// editing in place, the element panel, the palette, problems on their elements. The first tests
// are the cases a new user met on the form-based screen, where an action landed on an element
// other than the one chosen.
import { writeZip } from '@galley/core';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSite, screenshot, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { page as pageHtml, plainSiteZip } from './site-fixtures.js';
import { agentOf } from './editor-helpers.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

/** Waits for a person-visible outcome: a first load of the editor on a cold server is slow. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

const utf8 = (text: string) => new TextEncoder().encode(text);
/** A PNG's signature and header: enough for the checks to read its format and size. */
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 8,
  0, 0, 0, 8, 8, 2, 0, 0, 0, 0x4b, 0x6d, 0x29, 0xdc,
]);

function siteWith(body: string, files: [string, Uint8Array][] = []): Uint8Array {
  return writeZip(
    new Map<string, Uint8Array>([
      ['index.html', utf8(pageHtml('Test page', body))],
      ['style.css', utf8('body { font-family: serif; }')],
      ...files,
    ]),
  );
}

/** The preview's frame, once the page is in it (the frame element is replaced on each load). */
async function preview(page: Page): Promise<Frame> {
  await page
    .frameLocator('iframe[title="Preview"]')
    .locator('body [data-galley-n]')
    .first()
    .waitFor();
  const handle = await page.locator('iframe[title="Preview"]').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the preview frame has no document');
  return frame;
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Outline' });
const row = (page: Page, name: RegExp) => tree(page).getByRole('treeitem', { name });
const selectedRow = (page: Page) => tree(page).locator('[role=treeitem][aria-selected=true]');
const selectedText = (page: Page) => selectedRow(page).textContent();
const bodyText = async (page: Page) => (await preview(page)).locator('body').innerText();
const focusIsOnBody = (page: Page) =>
  page.evaluate<boolean>(
    'document.activeElement === null || document.activeElement === document.body',
  );

/** Inserts raw HTML through the palette, next to the first row whose name matches. */
async function insertRaw(page: Page, near: RegExp, where: 'before' | 'after', html: string) {
  await row(page, near).first().click();
  await page.getByLabel(where === 'after' ? 'After' : 'Before').check();
  await page.getByText('Raw HTML').click();
  await page.getByLabel('HTML to insert').fill(html);
  await page.getByRole('button', { name: 'Insert HTML' }).click();
}

async function editing(page: Page, url: string): Promise<Frame> {
  page.setDefaultTimeout(15_000);
  await page.goto(url);
  await poll(() => page.locator('#lock-status').textContent()).toContain('You are editing');
  return preview(page);
}

describe.skipIf(!!why)(
  'screen: the visual editor never changes the wrong element',
  { timeout: 60_000 },
  () => {
    let t: ScreenTest;
    beforeAll(async () => {
      t = await startScreenTest();
    });
    afterAll(() => t?.close());

    it('removes the second of two elements sharing an id when the second is chosen', async () => {
      // A site's conversion renames a repeated id, so the second one comes in by editing.
      const site = await openSite(t, siteWith('<h1 id="dup">First</h1>\n<p>Third</p>'));
      const { page, problems } = await t.signedIn();
      await editing(page, site.editor);
      await insertRaw(page, /h1#dup/, 'after', '<p id="dup">Second</p>');
      await poll(() => row(page, /p#dup Second/).count()).toBe(1);
      await row(page, /p#dup Second/).click();
      await page.getByRole('button', { name: 'Remove' }).click();
      await poll(() => bodyText(page)).not.toContain('Second');
      expect(await bodyText(page)).toContain('First');
      // The selection moved to the neighbour, visibly: the tree and the preview show the same one.
      expect(await selectedText(page)).toContain('Third');
      expect(problems).toEqual([]);
    });

    it('shows, highlights and removes one and the same element; a double click removes one', async () => {
      const site = await openSite(
        t,
        siteWith(
          '<h1>Title</h1>\n<p>Intro <a href="index.html">home</a></p>\n<p id="after">After</p>',
        ),
      );
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await insertRaw(page, /p Intro/, 'after', '<img src="missing.png" alt="A picture">');
      // The local checks run as the draft opens: the missing image is a problem on its element.
      const problem = page.locator('.problem-list li', { hasText: 'missing.png' });
      await problem.getByRole('button', { name: 'Select the element' }).click();
      await poll(() => selectedText(page)).toMatch(/^.?img/);
      // The preview's selection mark sits on the image.
      const mark = await page.locator('.mark-selected').boundingBox();
      const image = await frame.locator('img').boundingBox();
      expect(Math.round(mark!.x)).toBe(Math.round(image!.x));
      expect(Math.round(mark!.y)).toBe(Math.round(image!.y));
      expect(await focusIsOnBody(page)).toBe(false);

      await page.getByRole('button', { name: 'Remove' }).dblclick();
      await poll(() => frame.locator('img').count()).toBe(0);
      await page.waitForTimeout(300);
      const text = await bodyText(page);
      expect(text).toContain('Title');
      expect(text).toContain('After');
      expect(text).toContain('Intro');
    });

    it('a problem shown before an insert still selects its own element after it', async () => {
      const site = await openSite(
        t,
        siteWith(
          '<h1 id="top">Title</h1>\n<p><a href="index.html">A link</a></p>\n<img src="logo.png" alt="Logo">',
          [['logo.png', PNG]],
        ),
      );
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await insertRaw(page, /img/, 'after', '<img src="missing.png" alt="Broken">');
      await poll(() => page.locator('.problem-list li', { hasText: 'missing.png' }).count()).toBe(
        1,
      );
      // Everything renumbers: a paragraph before the heading.
      await row(page, /h1#top/).click();
      await page.getByLabel('Before').check();
      await page.getByRole('button', { name: 'Paragraph' }).click();
      await page.keyboard.press('Escape');
      await poll(() => frame.locator('p').count()).toBe(2);
      await page
        .locator('.problem-list li', { hasText: 'missing.png' })
        .getByRole('button', { name: 'Select the element' })
        .click();
      await poll(() => selectedText(page)).toMatch(/^.?img/);
      expect(await page.getByLabel('alt', { exact: true }).inputValue()).toBe('Broken');
      // Fixing it in the element panel: the image, not the link, gets the new source.
      const src = page.getByLabel('src', { exact: true });
      await src.fill('logo.png');
      await src.press('Enter');
      await poll(() => frame.locator('img[alt=Broken]').getAttribute('src')).toBe('logo.png');
      expect(await frame.locator('a').getAttribute('href')).toBe('index.html');
      await poll(() => page.locator('.problem-list li', { hasText: 'missing.png' }).count()).toBe(
        0,
      );
    });
  },
);

describe.skipIf(!!why)(
  'screen: pointing, editing in place, keys, devices',
  { timeout: 60_000 },
  () => {
    let t: ScreenTest;
    beforeAll(async () => {
      t = await startScreenTest();
    });
    afterAll(() => t?.close());

    it('hovering names an element, clicking selects it, links never navigate', async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, problems } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await frame.locator('#intro').hover({ position: { x: 5, y: 5 } });
      await poll(() => page.locator('.mark-hover .mark-label').textContent()).toBe('<p#intro>');
      const url = frame.url();
      await frame.getByText('About us').click();
      await poll(() => selectedText(page)).toMatch(/^.?a About us/);
      expect(frame.url()).toBe(url);
      // The breadcrumb names the ancestors; choosing one selects it.
      const crumbs = page.getByRole('navigation', { name: /ancestors/ });
      await poll(() => crumbs.textContent()).toContain('<main#content>');
      await crumbs.getByRole('button', { name: '<main#content>' }).click();
      await poll(() => selectedText(page)).toContain('main#content');
      await screenshot(page, 'editor-selection');
      expect(problems).toEqual([]);
    });

    it('edits text in place: Enter commits one operation, Escape cancels', async () => {
      const site = await openSite(t, plainSiteZip());
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await frame.locator('#title').dblclick();
      await page.keyboard.type('Harbour Bar');
      await screenshot(page, 'editor-inline-edit');
      await page.keyboard.press('Enter');
      await poll(() => frame.locator('#title').textContent()).toBe('Harbour Bar');
      await poll(() => page.getByRole('button', { name: 'Undo' }).isEnabled()).toBe(true);

      await frame.locator('#intro').dblclick();
      await page.keyboard.type('Gone');
      await page.keyboard.press('Escape');
      await poll(() => frame.locator('#intro').textContent()).toContain('Fresh bread');
      // Undo takes back the one committed edit.
      await page.getByRole('button', { name: 'Undo' }).click();
      await poll(() => frame.locator('#title').textContent()).toBe('Harbour Café');
    });

    it('the keys work from the tree and from the preview, and focus never falls to the page', async () => {
      const site = await openSite(t, siteWith('<p id="a">A</p>\n<p id="b">B</p>\n<p id="c">C</p>'));
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await row(page, /p#a/).click();
      await page.keyboard.press('ArrowDown');
      await poll(() => selectedText(page)).toContain('p#b');
      await page.keyboard.press('Alt+ArrowUp');
      await poll(() => bodyText(page)).toMatch(/B\s+A\s+C/);
      expect(await selectedText(page)).toContain('p#b');
      await page.keyboard.press('Delete');
      await poll(() => frame.locator('#b').count()).toBe(0);
      expect(await focusIsOnBody(page)).toBe(false);
      await page.keyboard.press('Control+z');
      await poll(() => frame.locator('#b').count()).toBe(1);

      // From inside the preview: the frame has the focus and the same keys apply.
      await frame.locator('#c').click();
      await page.keyboard.press('Delete');
      await poll(() => frame.locator('#c').count()).toBe(0);
      await page.keyboard.press('Control+z');
      await poll(() => frame.locator('#c').count()).toBe(1);
      await page.keyboard.press('Control+Shift+z');
      await poll(() => frame.locator('#c').count()).toBe(0);
      await page.keyboard.press('Control+y');
      await page.keyboard.press('Escape');
      await poll(() => selectedRow(page).count()).toBe(0);
      await page.keyboard.press('Control+s');
      await poll(() => page.locator('.notice[data-place=toolbar]').textContent()).toContain(
        'Saved as revision',
      );
    });

    it('moves by drag and drop in the tree and in the preview', async () => {
      const site = await openSite(
        t,
        siteWith('<p id="a">A</p>\n<section id="s"><p id="in">In</p></section>\n<p id="z">Z</p>'),
      );
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await row(page, /p#z/).dragTo(row(page, /p#a/), { targetPosition: { x: 40, y: 3 } });
      await poll(() => bodyText(page)).toMatch(/^Z\s+A/);
      // In the preview: #a dropped on the lower part of the section's paragraph goes after it.
      // Real input events through CDP: Playwright's own mouse, with a button held, waits on a
      // script in the frame, and no script runs in the preview.
      await frame.locator('#a').click();
      const from = (await frame.locator('#a').boundingBox())!;
      const to = (await frame.locator('#in').boundingBox())!;
      const cdp = await page.context().newCDPSession(page);
      const mouse = (type: 'mousePressed' | 'mouseMoved' | 'mouseReleased', x: number, y: number) =>
        cdp.send('Input.dispatchMouseEvent', {
          type,
          x,
          y,
          button: 'left',
          buttons: type === 'mouseReleased' ? 0 : 1,
          clickCount: 1,
        });
      await mouse('mousePressed', from.x + 5, from.y + 5);
      for (let step = 1; step <= 8; step++)
        await mouse(
          'mouseMoved',
          from.x + 5 + ((to.x + 10 - from.x - 5) * step) / 8,
          from.y + 5 + ((to.y + to.height - 2 - from.y - 5) * step) / 8,
        );
      await mouse('mouseReleased', to.x + 10, to.y + to.height - 2);
      await poll(() => frame.locator('#s #a').count()).toBe(1);
    });

    it('views a saved revision read-only and compares two side by side', async () => {
      const site = await openSite(t, plainSiteZip());
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await frame.locator('#title').dblclick();
      await page.keyboard.type('Harbour Bar');
      await page.keyboard.press('Enter');
      await poll(() => page.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);
      await page.keyboard.press('Control+s');
      await poll(() => page.locator('.notice[data-place=toolbar]').textContent()).toContain(
        'Saved as revision 2',
      );
      await page.getByText('History of this page').click();
      const history = page.locator('.history-panel');
      await history.getByRole('button', { name: 'View revision 1' }).click();
      await poll(async () => (await preview(page)).locator('#title').textContent()).toBe(
        'Harbour Café',
      );
      expect(await page.getByRole('button', { name: 'Remove' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Back to my draft' }).click();
      await poll(async () => (await preview(page)).locator('#title').textContent()).toBe(
        'Harbour Bar',
      );
      await history.getByLabel('Compare revision 1').check();
      await history.getByLabel('Compare revision 2').check();
      await history.getByRole('button', { name: 'Compare' }).click();
      const diff = page.getByRole('dialog', { name: 'Compare two revisions' });
      await poll(() => diff.isVisible()).toBe(true);
      const text = (await diff.textContent())!;
      expect(text).toContain('Harbour Café');
      expect(text).toContain('Harbour Bar');
      await screenshot(page, 'editor-diff');
      await diff.getByRole('button', { name: 'Close' }).click();
      await poll(() => diff.isVisible()).toBe(false);
    });

    it('keeps the preview where it was scrolled after a change', async () => {
      const paragraphs = Array.from({ length: 80 }, (_, i) => `<p id="p${i}">Paragraph ${i}</p>`);
      const site = await openSite(t, siteWith(paragraphs.join('\n')));
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await frame.locator('#p60').click();
      const scrolled = await frame.evaluate<number>('scrollY');
      expect(scrolled).toBeGreaterThan(200);
      await page.keyboard.press('Delete');
      await poll(() => frame.locator('#p60').count()).toBe(0);
      expect(Math.abs((await frame.evaluate<number>('scrollY')) - scrolled)).toBeLessThan(2);
    });

    it('asks before leaving with unsaved changes', async () => {
      const site = await openSite(t, plainSiteZip());
      const { page } = await t.signedIn();
      const frame = await editing(page, site.editor);
      await frame.locator('#intro').click();
      await page.keyboard.press('Delete');
      await poll(() => frame.locator('#intro').count()).toBe(0);
      // Chromium closes a page whose beforeunload handler does not answer in time as if it had
      // not asked: let the local checks (350 ms after a change, on the page's thread) run first.
      await page.evaluate(
        'new Promise((done) => setTimeout(() => requestIdleCallback(done, { timeout: 5000 }), 500))',
      );
      const asked = new Promise<string>((resolve) =>
        page.once('dialog', (dialog) => {
          resolve(dialog.type());
          void dialog.dismiss();
        }),
      );
      await page.close({ runBeforeUnload: true });
      const noDialog = new Promise<string>((resolve) =>
        setTimeout(() => resolve('no dialog within 15 s'), 15_000).unref(),
      );
      expect(await Promise.race([asked, noDialog])).toBe('beforeunload');
    });

    it('shows the page in the medium’s frames', async () => {
      const site = await openSite(t, plainSiteZip());
      const { page } = await t.signedIn();
      await editing(page, site.editor);
      await page.getByRole('button', { name: 'Phone 390' }).click();
      await poll(() =>
        page.evaluate<number>('document.querySelector(\'iframe[title="Preview"]\').clientWidth'),
      ).toBe(390);
      await screenshot(page, 'editor-device-phone');
    });
  },
);

describe.skipIf(!!why)('screen: other people’s changes', { timeout: 90_000 }, () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  /** A call of the editing interface as an agent with its own X-Editor-Client. */
  const agent = (method: string, path: string, json?: unknown) =>
    agentOf(t.server, 'agent-7')(method, path, json);

  it('a stale draft says so as it opens, and re-applies its changes on the new revision', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page } = await t.signedIn();
    const frame = await editing(page, site.editor);
    await frame.locator('#intro').click();
    await page.getByRole('button', { name: 'Paragraph' }).click();
    await page.keyboard.type('Open on Sundays.');
    await page.keyboard.press('Enter');
    await poll(() => bodyText(page)).toContain('Open on Sundays.');
    // Leaving the editor (same tab: same client) lets the lock go; an agent saves meanwhile.
    await page.goto(`${t.server.url}/projects/${site.id}`);
    await poll(async () => (await agent('GET', `/projects/${site.id}/lock`))!.lock).toBeNull();
    await agent('PUT', `/projects/${site.id}/lock`, { kind: 'agent', label: 'Tidy-up bot' });
    const draft = (await agent('GET', `/pages/${site.index}/draft`))!;
    const changed = (await agent('POST', `/pages/${site.index}/operations`, {
      draft_token: draft.draft_token,
      operation: { kind: 'swap', target: '#title', html: 'Harbour Bar' },
    }))!;
    const saved = (await agent('PUT', `/pages/${site.index}/operations`, {
      draft_token: changed.draft_token,
      commit_id: crypto.randomUUID(),
    }))!;
    await agent('DELETE', `/projects/${site.id}/lock`);

    await page.goto(site.editor);
    const dialog = page.getByRole('dialog', { name: 'This draft is older than the saved page' });
    await poll(() => dialog.isVisible()).toBe(true);
    const told = (await dialog.textContent())!;
    expect(told).toContain(`made on revision ${draft.base_revision as number}`);
    expect(told).toContain(`now at revision ${saved.revision as number}`);
    await screenshot(page, 'editor-stale-draft');
    await dialog.getByRole('button', { name: /Re-apply my changes/ }).click();
    await poll(() => bodyText(page)).toContain('Open on Sundays.');
    const text = await bodyText(page);
    expect(text).toContain('Harbour Bar');
    // The paragraph went where it was put: right after #intro.
    const after = await (await preview(page)).locator('#intro + p').textContent();
    expect(after).toBe('Open on Sundays.');
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.locator('.notice[data-place=toolbar]').textContent()).toContain(
      `Saved as revision ${(saved.revision as number) + 1}`,
    );
  });

  it('a second person sees the page read-only, with the holder’s changes as they are made', async () => {
    const site = await openSite(t, plainSiteZip());
    const ada = await t.signedIn();
    const frame = await editing(ada.page, site.editor);
    const bea = await t.signedIn();
    bea.page.setDefaultTimeout(15_000);
    await bea.page.goto(site.editor);
    await poll(() => bea.page.locator('#lock-status').textContent()).toMatch(
      /Read-only: .* is editing since/,
    );
    await preview(bea.page);
    expect(await bea.page.getByRole('button', { name: 'Remove' }).isDisabled()).toBe(true);
    expect(await bea.page.getByRole('button', { name: 'Paragraph' }).isDisabled()).toBe(true);

    await frame.locator('#title').dblclick();
    await ada.page.keyboard.type('Live from Ada');
    await ada.page.keyboard.press('Enter');
    // No reload on Bea's side: her page keeps its marker while the preview changes.
    await bea.page.evaluate('window.galleyNoReload = true');
    await poll(() => bodyText(bea.page)).toContain('Live from Ada');
    expect(await bea.page.evaluate('window.galleyNoReload')).toBe(true);
    await screenshot(bea.page, 'editor-live-read-only');
    // The one error Chromium logs is the lock's 423, which is how the screen learns who edits.
    expect(bea.problems.filter((p) => !p.includes('status of 423'))).toEqual([]);
  });
});
