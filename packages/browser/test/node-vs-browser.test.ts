import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as library from '@galley/browser';
import { bundleBrowser } from '../scripts/bundle.js';
import { draftCases, saveCases } from './cases.js';
import type { DraftCase, SaveCase } from './cases.js';
import { launchChromium, whyNoChromium } from './chromium.js';
import { servePage } from './page-server.js';
import type { PageServer } from './page-server.js';

// These two functions run as they are in Node and, serialized by Playwright, in Chromium: each
// reads the library from the global `Galley` and answers JSON text, compared byte for byte.
function judgeSaves(cases: readonly SaveCase[]): string[] {
  const G = (globalThis as unknown as { Galley: typeof library }).Galley;
  return cases.map((c) => {
    const zip = Uint8Array.from(atob(c.zip), (ch) => ch.charCodeAt(0));
    const read = G.readSavedFolder(zip);
    const report = G.validateBeforeSave({ folder: read.folder, file: c.file, html: c.html });
    return JSON.stringify({ read: read.violations, report });
  });
}

function runDrafts(cases: readonly DraftCase[]): string[] {
  const G = (globalThis as unknown as { Galley: typeof library }).Galley;
  return cases.map((c) => {
    const opened = G.Draft.open(c.html);
    if (!opened.ok) return JSON.stringify(opened);
    const { draft } = opened;
    const steps: unknown[] = c.operations.map((operation) => {
      const done = draft.apply(operation);
      return { done, outline: draft.outline(), depths: draft.outlineDepths() };
    });
    steps.push(draft.undo(), draft.undo(), draft.redo(), { kind: 'bad' });
    return JSON.stringify({
      steps,
      html: draft.html(),
      outline: draft.outline(),
      depths: draft.outlineDepths(),
      log: draft.log(),
    });
  });
}

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('Node and Chromium', () => {
  let dist: string;
  let server: PageServer;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    (globalThis as unknown as { Galley: typeof library }).Galley = library;
    dist = await mkdtemp(join(tmpdir(), 'galley-bundle-'));
    await bundleBrowser({ outDir: dist });
    server = await servePage(dist);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('give byte-equal check reports for the same saved folder and draft HTML', async () => {
    const { cases, skipped } = saveCases();
    for (const reason of skipped) console.warn(`partly skipped: ${reason}`);
    const inNode = judgeSaves(cases);
    const inBrowser = await page.evaluate(judgeSaves, cases);
    expect(inBrowser.length).toBe(cases.length);
    cases.forEach((c, i) => expect(inBrowser[i], c.name).toBe(inNode[i]));
    // The fixtures are worth comparing: they do find problems of many kinds.
    const codes = new Set(
      inNode.flatMap((json) => [...json.matchAll(/"code":"([a-z_.]+)"/g)].map((m) => m[1])),
    );
    expect(codes.size).toBeGreaterThan(8);
  });

  it('apply the same operations to the same HTML alike (results, outline and depths, HTML, log)', async () => {
    const inNode = runDrafts(draftCases);
    const inBrowser = await page.evaluate(runDrafts, draftCases);
    expect(inBrowser).toEqual(inNode);
    expect(inNode[0]).toContain('"nodes"');
  });

  it('run under a strict CSP without eval and without a policy violation', async () => {
    // The drafts above include pages with inline styles, a style element and event handlers:
    // the engine reads them (outline, depths, HTML) without the browser ever parsing them.
    const violations = () =>
      page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect(await violations()).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // The listener does see what such a page does to a document that parses it in this origin.
    await page.evaluate((html) => {
      new DOMParser().parseFromString(html, 'text/html');
    }, draftCases[2]!.html);
    await expect
      .poll(async () => [...new Set((await violations()).map((v) => v.split(' ')[0]))].sort())
      .toEqual(['script-src-attr', 'style-src-attr', 'style-src-elem']);
  });
});
