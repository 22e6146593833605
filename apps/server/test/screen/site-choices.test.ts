// The site choices of the open form (entry page, drop external, drop missing), in Chromium: a
// site the default refuses opens once a person ticks what the refusal names.
import { writeZip } from '@galley/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScreenTest, whyNoChromium } from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

const encoder = new TextEncoder();
const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
const videoSite = writeZip(
  new Map([
    [
      'home.html',
      encoder.encode(
        page(
          'Harbour video',
          '<iframe src="https://www.youtube.com/embed/ojcNcvb1olg"></iframe><script src="main.js"></script>',
        ),
      ),
    ],
  ]),
);

describe.skipIf(!!why)('screen: opening a plain site with its choices', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it('names the entry page and drops what the site cannot load; the report lists it', async () => {
    const { page: tab, context } = await t.signedIn();
    const open = async () => {
      await tab.getByLabel(/ZIP file/).setInputFiles({
        name: 'video.zip',
        mimeType: 'application/zip',
        buffer: Buffer.from(videoSite),
      });
      await tab.getByRole('button', { name: 'Open' }).click();
    };
    const result = tab.locator('#open-result');

    await tab.getByLabel(/Entry page/).fill('home.html');
    await open();
    const alert = result.locator('[role=alert]');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.locator('li[data-code="site.external"]').count()).toBe(1);
    expect(await alert.textContent()).toContain('drop_external');

    await tab.getByLabel(/Drop what loads from other sites/).check();
    await tab.getByLabel(/Drop what loads files missing/).check();
    await open();
    await expect.poll(() => result.textContent()).toContain('Opened Harbour video');
    const report = (await result.textContent())!;
    expect(report).toContain('index.html → /');
    expect(report).toContain('site.embed_linked');
    expect(report).toContain('site.missing_dropped');
    await context.close();
  });
});
