import { describe, expect, it } from 'vitest';
import { checkFolder, convertSite } from '@galley/core';
import { folderOf, png } from './fixtures.js';

// Plain-site conversion (decisions §5) reads URLs with its own scanner (src/site/css.ts, html.ts);
// the server checks the folder it produces again (apps/server folder-state.ts). These tests pin
// what reaches a project through that path for the loads the links check learnt to see.

const page = (head: string, body = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>T</title>${head}</head><body>${body}</body></html>`;
const evil = 'https://evil.example/a.png';

const externalSites: Record<string, Record<string, string | Uint8Array>> = {
  'url( escaped in <style>': {
    'index.html': page(`<style>body{background:u\\72l(${evil})}</style>`),
  },
  'url( escaped in a style sheet': {
    'index.html': page('<link rel="stylesheet" href="a.css">'),
    'a.css': `body{background:u\\72l(${evil})}`,
  },
  '@import escaped': {
    'index.html': page('<style>@\\69mport "https://evil.example/a.css";</style>'),
  },
  'image-set() string': {
    'index.html': page(`<style>body{background:image-set("${evil}" 1x)}</style>`),
  },
  'external <base href>': {
    'index.html': page('<base href="https://evil.example/">', '<img src="a.png" alt="">'),
    'a.png': png(1, 1),
  },
};

/** The external loads a conversion refuses, or else the links check of what it produced. */
function externalFindings(files: Record<string, string | Uint8Array>) {
  const result = convertSite(folderOf(files));
  const violations = result.ok ? checkFolder(result.folder).violations : result.report.violations;
  return violations.filter((v) => v.code === 'site.external' || v.code === 'links.external');
}

describe('plain sites and the loads the links check reads', () => {
  it.each(Object.entries(externalSites))('%s never reaches a project unseen', (_, files) => {
    expect(externalFindings(files)).not.toEqual([]);
  });

  // Known gap, to be fixed in src/site (not here): conversion does not see these loads itself,
  // so the server refuses the site with `links.external` rather than `site.external`. When the
  // site scanner is fixed these turn red: make them plain `it`.
  it.fails.each(Object.entries(externalSites))('%s is site.external', (_, files) => {
    const result = convertSite(folderOf(files));
    expect(result.ok ? [] : result.report.violations.map((v) => v.code)).toContain('site.external');
  });

  it.fails('a local <base href> is what relative URLs resolve against', () => {
    const files = {
      'index.html': page('<base href="img/">', '<img src="a.png" alt="">'),
      'img/a.png': png(1, 1),
    };
    expect(convertSite(folderOf(files)).ok).toBe(true);
  });
});
