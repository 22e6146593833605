// The visual editor, as a person uses it: pointing in the preview, the outline tree, the keys,
// editing in place, the attribute panel, the palette, problems on their elements.
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSite, screenshot, startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';
import { plainSiteZip } from './site-fixtures.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

/** The preview's frame, once the page is in it. */
async function preview(page: Page): Promise<Frame> {
  const frame = page.frameLocator('iframe[title="Preview"]');
  await frame.locator('body [data-galley-n]').first().waitFor();
  const handle = await page.locator('iframe[title="Preview"]').elementHandle();
  return (await handle!.contentFrame())!;
}

const selectedRow = (page: Page) =>
  page.getByRole('tree', { name: 'Outline' }).locator('[role=treeitem][aria-selected=true]');

async function editing(page: Page, url: string) {
  page.setDefaultTimeout(8000);
  await page.goto(url);
  await expect.poll(() => page.locator('#lock-status').textContent()).toContain('You are editing');
  await preview(page);
}

describe.skipIf(!!why)('screen: the visual editor', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it('selects by pointing, in the tree and the preview alike', async () => {
    const site = await openSite(t, plainSiteZip());
    const { page, problems } = await t.signedIn();
    await editing(page, site.editor);
    const frame = await preview(page);
    await frame.locator('#intro').click();
    await expect.poll(() => selectedRow(page).textContent()).toContain('#intro');
    await screenshot(page, 'editor-selection');
    await page
      .getByRole('tree', { name: 'Outline' })
      .getByRole('treeitem', { name: /#title/ })
      .click();
    await expect.poll(() => selectedRow(page).textContent()).toContain('#title');
    expect(problems).toEqual([]);
  });
});
