// The Insert palette as a person uses it: a new heading, paragraph or link is typed into as soon
// as it is shown, whether the server answers late, refuses, or another element's text was being
// edited when the block was chosen (the keys typed while it waits for that text are held for it);
// and the block being typed into is in view, below the sticky toolbar, after the page around the
// preview was scrolled down to the palette.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSite, screenshot, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import {
  button,
  editing,
  holdFirstOperation,
  indexEditor,
  noticesShown,
  noticeText,
  previewOf,
  PREVIEW,
  rowOf,
  selectedRow,
  serverDraft,
  SLOW_MS,
} from './editor-helpers.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('screen: typing into blocks from the Insert palette', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it(
    'keeps the keys typed into a new paragraph while its insert is still on its way',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.signedIn();
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      await rowOf(page, 'intro').click();
      // The insert's request is held while the person types into the block they just placed.
      const { release, sent } = await holdFirstOperation(page);
      await button(page, 'Paragraph').click();
      await page.keyboard.type('Open on Sundays.');
      expect(sent).toEqual(['insert']);
      await screenshot(page, 'editor-typing-before-answer');
      release();
      await page.keyboard.press('Enter');
      await expect.poll(() => sent).toEqual(['insert', 'swap']);
      await expect.poll(() => noticesShown(page)).toEqual([]);
      await expect.poll(() => preview.locator('#intro + p').textContent()).toBe('Open on Sundays.');
      // The server holds what was typed: the draft's page has it.
      expect(await serverDraft(t.server, page, site.index)).toMatch(
        /id="intro"[^]*<\/p>\s*<p>Open on Sundays.<\/p>/,
      );
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'ends the editing of a new paragraph whose insert failed, and says so at the palette',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context } = await t.signedIn();
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      await rowOf(page, 'intro').click();
      const { release } = await holdFirstOperation(page, 'abort');
      await button(page, 'Paragraph').click();
      await page.keyboard.type('Never sent');
      // Enter before the failure: the text waits for the insert, and goes with it.
      await page.keyboard.press('Enter');
      release();
      await expect.poll(() => noticeText(page, 'palette')).not.toBe('');
      await page.waitForTimeout(300); // the text's change, run once the insert failed
      expect(await noticesShown(page)).toEqual([`palette: ${await noticeText(page, 'palette')}`]);
      await expect.poll(() => preview.locator('#intro + p').textContent()).toBe('See the menu.');
      expect(await preview.locator('body').textContent()).not.toContain('Never sent');
      expect(await preview.locator('[contenteditable]').count()).toBe(0);
      // The selection is back where it was before the insert, and so is the focus.
      expect(await selectedRow(page).textContent()).toContain('#intro');
      await expect
        .poll(() => page.evaluate<string | null>('document.activeElement.textContent'))
        .toBe(await selectedRow(page).textContent());
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'takes a palette block clicked while another element’s text is being edited',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.signedIn();
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      const editable = preview.locator('[contenteditable]');
      // The click on the block ends the editing of #intro, unchanged: the focus stays with the
      // new block, and what is typed goes into it.
      await preview.locator('#intro').dblclick({ position: { x: 5, y: 5 } });
      await expect.poll(() => editable.count()).toBe(1);
      await button(page, 'Paragraph').click();
      await page.keyboard.type('First block.');
      await page.keyboard.press('Enter');
      await expect.poll(() => preview.locator('#intro + p').textContent()).toBe('First block.');
      // Changed: its text is on its way as the block is chosen; the block waits for it.
      await preview.locator('#intro').dblclick({ position: { x: 5, y: 5 } });
      await expect.poll(() => editable.count()).toBe(1);
      await page.keyboard.type('Fresh bread.');
      await button(page, 'Heading').click();
      await expect.poll(() => preview.locator('h2[contenteditable]').count()).toBe(1);
      await page.keyboard.type('Second block.');
      await page.keyboard.press('Enter');
      await expect.poll(() => preview.locator('#intro + h2').textContent()).toBe('Second block.');
      expect(await preview.locator('#intro').textContent()).toBe('Fresh bread.');
      expect(await noticesShown(page)).toEqual([]);
      const html = await serverDraft(t.server, page, site.index);
      expect(html).toMatch(/Fresh bread\.<\/p>\s*<h2>Second block\.<\/h2>\s*<p>First block\.<\/p>/);
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'keeps the keys typed into a block that waits for another text on its way',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context, problems } = await t.signedIn();
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      await preview.locator('#intro').dblclick({ position: { x: 5, y: 5 } });
      await expect.poll(() => preview.locator('[contenteditable]').count()).toBe(1);
      await page.keyboard.type('Fresh bread.');
      // The click ends #intro's editing: its text is sent, and held; the block waits for it
      // while the person types (spaces included: none presses the button again).
      const { release, sent } = await holdFirstOperation(page);
      await button(page, 'Paragraph').click();
      await expect.poll(() => sent).toEqual(['swap']);
      await page.keyboard.type('Open on Sundays');
      expect(await preview.locator('[contenteditable]').count()).toBe(0);
      release();
      await expect
        .poll(() => preview.locator('p[contenteditable]').textContent())
        .toBe('Open on Sundays');
      await page.keyboard.type('.');
      await page.keyboard.press('Enter');
      await expect.poll(() => sent).toEqual(['swap', 'insert', 'swap']);
      await expect.poll(() => preview.locator('#intro + p').textContent()).toBe('Open on Sundays.');
      expect(await preview.locator('p').count()).toBe(3);
      // Enter typed while held ends the block's editing once its typing is done.
      await preview.locator('#intro').dblclick({ position: { x: 5, y: 5 } });
      await expect.poll(() => preview.locator('[contenteditable]').count()).toBe(1);
      await page.keyboard.type('Fresher bread.');
      const second = await holdFirstOperation(page);
      await button(page, 'Heading').click();
      await expect.poll(() => second.sent).toEqual(['swap']);
      await page.keyboard.type('Hours');
      await page.keyboard.press('Enter');
      second.release();
      await expect.poll(() => second.sent).toEqual(['swap', 'insert', 'swap']);
      await expect.poll(() => preview.locator('#intro + h2').textContent()).toBe('Hours');
      expect(await preview.locator('[contenteditable]').count()).toBe(0);
      expect(await noticesShown(page)).toEqual([]);
      expect(await serverDraft(t.server, page, site.index)).toMatch(
        /Fresher bread\.<\/p>\s*<h2>Hours<\/h2>\s*<p>Open on Sundays\.<\/p>/,
      );
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'inserts no block that waited for a text refused meanwhile, and says why the text was lost',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context } = await t.signedIn();
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      await preview.locator('#intro').dblclick({ position: { x: 5, y: 5 } });
      await expect.poll(() => preview.locator('[contenteditable]').count()).toBe(1);
      await page.keyboard.type('Fresh bread.');
      const { release, sent } = await holdFirstOperation(page, 'abort');
      await button(page, 'Paragraph').click();
      await expect.poll(() => sent).toEqual(['swap']);
      await page.keyboard.type('xyz');
      release();
      // The text's failure stays on show, where the text was edited; no block went in after it.
      await expect.poll(() => noticeText(page, 'canvas')).not.toBe('');
      await page.waitForTimeout(300); // whatever the block would have done, after the failure
      expect(await noticesShown(page)).toEqual([`canvas: ${await noticeText(page, 'canvas')}`]);
      expect(sent).toEqual(['swap']);
      expect(await preview.locator('p').count()).toBe(2);
      expect(await preview.locator('#intro').textContent()).toBe(
        'Fresh bread every morning. About us',
      );
      expect(await preview.locator('body').textContent()).not.toContain('xyz');
      const html = await serverDraft(t.server, page, site.index);
      expect(html).not.toMatch(/xyz|Fresh bread\./);
      await context.close();
    },
    SLOW_MS,
  );

  it(
    'keeps the block being typed into in view, below the sticky toolbar',
    async () => {
      const site = await openSite(t, plainSiteZip());
      const { page, context } = await t.signedIn();
      await page.setViewportSize({ width: 1440, height: 900 });
      await editing(page, indexEditor(site));
      const preview = previewOf(page);
      await rowOf(page, 'intro').click();
      // The wheel over the preview scrolls the page down to the palette's buttons: the top of the
      // preview, where the new paragraph goes (after #intro), is left partly under the toolbar,
      // which the browser's own scrolling on focus does not know of.
      const frameBox = (await page.locator(PREVIEW).boundingBox())!;
      await page.mouse.move(frameBox.x + frameBox.width / 2, frameBox.y + 100);
      await page.mouse.wheel(0, 2000);
      await expect.poll(() => page.evaluate<number>('window.scrollY')).toBeGreaterThan(300);
      await button(page, 'Paragraph').click();
      await page.keyboard.type('Seen as typed.');
      await expect
        .poll(() => preview.locator('p[contenteditable]').textContent())
        .toBe('Seen as typed.');
      const toolbar = (await page.locator('.editor-toolbar').boundingBox())!;
      const frame = (await page.locator(PREVIEW).boundingBox())!;
      const block = (await preview.locator('p[contenteditable]').boundingBox())!;
      // boundingBox of an element in the frame is in the page's coordinates already.
      expect(block.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height);
      expect(block.y + block.height).toBeLessThanOrEqual(900);
      expect(block.y).toBeGreaterThanOrEqual(frame.y);
      await screenshot(page, 'editor-typing-below-toolbar');
      await page.keyboard.press('Enter');
      await expect.poll(() => preview.locator('#intro + p').textContent()).toBe('Seen as typed.');
      await context.close();
    },
    SLOW_MS,
  );
});
