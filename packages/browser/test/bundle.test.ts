import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BundleError,
  GZIP_BUDGET_BYTES,
  SCREEN_BUDGET_BYTES,
  bundleBrowser,
} from '../scripts/bundle.js';
import type { BundleReport } from '../scripts/bundle.js';

let out: string;
let reports: readonly BundleReport[];
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'galley-bundle-'));
  reports = await bundleBrowser({ outDir: out });
});
afterAll(() => rm(out, { recursive: true, force: true }));

describe('the browser bundles', () => {
  it('writes the ES module, the minified script and the screen script', () => {
    expect(reports.map((r) => r.file)).toEqual([
      'galley.js',
      'galley.min.js',
      'galley-screen.min.js',
    ]);
  });

  it('keeps the minified library within 150 KB gzipped', () => {
    const library = reports.find((r) => r.file === 'galley.min.js')!;
    expect(library.budget).toBe(GZIP_BUDGET_BYTES);
    expect(library.gzipBytes).toBeLessThanOrEqual(150 * 1024);
  });

  it('fails the build above the budget', async () => {
    const error = await bundleBrowser({ outDir: out, budget: 10 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleError);
    expect((error as BundleError).code).toBe('over_budget');
  });

  it('is an ES module with the public names, and an IIFE that sets the global Galley', async () => {
    const esm = await readFile(join(out, 'galley.js'), 'utf8');
    for (const name of [
      'validateBeforeSave',
      'SyncedDraft',
      'createClient',
      'Draft',
      'readSavedFolder',
    ])
      expect(esm).toMatch(new RegExp(`export \\{[^}]*\\b${name}\\b`));
    const iife = await readFile(join(out, 'galley.min.js'), 'utf8');
    expect(iife).toMatch(/^("use strict";)?var Galley=\(\(\)=>\{/);
  });

  it('keeps English only of the zod locales (the rest would be ~260 KB)', async () => {
    const esm = await readFile(join(out, 'galley.js'), 'utf8');
    expect(esm).not.toMatch(/zod\/v4\/locales\/(?!en\.js)[a-z-]+\.js/);
  });

  it('leaves the screen script without a second copy of the library', async () => {
    const screen = await readFile(join(out, 'galley-screen.min.js'), 'utf8');
    // The draft engine's parser and zod's schemas stay in galley.min.js alone.
    expect(screen).not.toMatch(/onopentagname|ZodError/);
    const report = reports.find((r) => r.file === 'galley-screen.min.js')!;
    expect(report.gzipBytes).toBeLessThan(80 * 1024);
  });

  it('keeps all the screen’s JavaScript within 200 KB gzipped', () => {
    const total = reports
      .filter((r) => r.file.endsWith('.min.js'))
      .reduce((sum, r) => sum + r.gzipBytes, 0);
    expect(total).toBeLessThanOrEqual(SCREEN_BUDGET_BYTES);
  });

  it('writes the screen’s style sheet beside the scripts', async () => {
    const css = await readFile(join(out, 'galley-screen.css'), 'utf8');
    expect(css).toContain('.tree-row');
    expect(css).toContain('.history-panel');
  });
});
