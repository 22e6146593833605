import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { checkFolder, type Folder, type SiteConversion } from '@galley/core';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An in-memory folder from text (or bytes) per path. */
export function folderOf(files: Record<string, string | Uint8Array>): Map<string, Uint8Array> {
  return new Map(
    Object.entries(files).map(([path, content]) => [
      path,
      typeof content === 'string' ? encoder.encode(content) : content,
    ]),
  );
}

export function textOf(folder: Folder, path: string): string {
  const bytes = folder.get(path);
  if (bytes === undefined) throw new Error(`no ${path} in ${[...folder.keys()].join(', ')}`);
  return decoder.decode(bytes);
}

/** A small page with a title. */
export function page(title: string, body = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/** 1×1 PNG: the formats rules sniff images, so tests use real ones. */
export const png = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  ),
  (c) => c.charCodeAt(0),
);

/** Asserts a successful conversion whose folder passes every folder check, and returns it. */
export function converted(result: SiteConversion) {
  if (!result.ok) {
    expect.fail(`conversion failed: ${JSON.stringify(result.report.violations, null, 1)}`);
  }
  const report = checkFolder(result.folder);
  expect(report.violations).toEqual([]);
  return result;
}

/** Asserts a failed conversion with `checks.site` failed and returns its violations. */
export function refused(result: SiteConversion) {
  if (result.ok) return expect.fail(`conversion succeeded: ${JSON.stringify(result.site)}`);
  expect(result.report.checks).toEqual({ site: 'failed' });
  return result.report.violations;
}

export const corpusSites = fileURLToPath(
  new URL('../../../../../shared/corpus/sites/', import.meta.url),
);
export const corpusMissing = existsSync(corpusSites)
  ? undefined
  : `corpus not found at ${corpusSites}`;

/** Reads a directory in place into a folder (paths relative to it, with `/`). */
export function readTree(dir: string, prefix = '', into = new Map<string, Uint8Array>()) {
  for (const name of readdirSync(dir).sort()) {
    const path = `${dir}/${name}`;
    if (statSync(path).isDirectory()) readTree(path, `${prefix}${name}/`, into);
    else into.set(`${prefix}${name}`, new Uint8Array(readFileSync(path)));
  }
  return into;
}
