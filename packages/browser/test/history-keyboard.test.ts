// The history panel and the diff view in Chromium, driven by the keyboard and found by their
// accessible names (the DOM-free render tests cannot press keys).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyCss } from '../src/screen/editor/history.css.js';
import { launchChromium, whyNoChromium } from './chromium.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('history panel and diff view, by keyboard', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const calls = () => page.evaluate(() => (window as unknown as { calls: unknown[][] }).calls);

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [fileURLToPath(new URL('./support/history-entry.tsx', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: ['es2022'],
      conditions: ['@galley/source'],
      jsx: 'automatic',
      jsxImportSource: 'preact',
      logLevel: 'silent',
    });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>History</title></head>' +
        '<body><main><h1>History</h1><div id="panel"></div><div id="diff"></div></main></body></html>',
    );
    await page.addStyleTag({
      content: `.sr-only { position: absolute; width: 1px; height: 1px;
      overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; } ${historyCss}`,
    });
    await page.addScriptTag({ content: bundled.outputFiles[0]!.text });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('chooses two revisions with Space and compares them with Enter, older first', async () => {
    const compare = page.getByRole('button', { name: 'Compare', exact: true });
    await expect(compare.isDisabled()).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'Compare revision 5' }).focus();
    await page.keyboard.press('Space');
    await expect(page.locator('.history-choice').textContent()).resolves.toBe(
      'Revision 5 chosen; choose one more to compare.',
    );
    await page.keyboard.press('Shift+Tab'); // the View button of revision 8, then its check box
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    await expect(page.locator('.history-choice').textContent()).resolves.toBe(
      'Revisions 5 and 8 chosen.',
    );
    await compare.focus();
    await page.keyboard.press('Enter');
    expect(await calls()).toEqual([['compare', 5, 8]]);
  });

  it('a third choice takes the place of the earlier one', async () => {
    await page.getByRole('checkbox', { name: 'Compare revision 2' }).focus();
    await page.keyboard.press('Space');
    const checked = await page
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).checked));
    expect(checked).toEqual([true, false, false, true]); // revisions 8, 5, 3, 2
  });

  it('views a revision with its button', async () => {
    await page.getByRole('button', { name: 'View revision 3' }).focus();
    await page.keyboard.press('Enter');
    expect((await calls()).at(-1)).toEqual(['view', 3]);
  });

  it('opens folded lines with the keyboard and moves the focus to them', async () => {
    const show = page.getByRole('button', { name: 'Show 13 unchanged lines' });
    await show.focus();
    await page.keyboard.press('Enter');
    await expect(show.count()).resolves.toBe(0);
    const focused = await page.evaluate(() => ({
      fold: document.activeElement?.getAttribute('data-fold'),
      text: document.activeElement?.textContent,
    }));
    expect(focused).toEqual({ fold: '0', text: '1 <p>Line 1</p>1 <p>Line 1</p>' });
    const cells = await page.getByRole('cell').allTextContents();
    expect(cells).toContain('−Removed: <p>Old</p>');
    expect(cells).toContain('+Added: <p>New</p>');
    expect(errors).toEqual([]);
  });

  it('has no accessibility violation axe-core finds', async () => {
    const axe = await readFile(
      createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
      'utf8',
    );
    await page.addScriptTag({ content: axe });
    const violations = await page.evaluate<
      string[]
    >(`axe.run(document, { resultTypes: ['violations'] })
      .then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
    expect(violations).toEqual([]);
  });
});
