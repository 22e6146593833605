import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  convertSite,
  convertSiteZip,
  isPlainSiteZip,
  readZip,
  violation,
  writeZip,
} from '@galley/core';
import { converted, folderOf, page, png, refused } from './helpers.js';

const latin1 = Uint8Array.from([...'<title>Caf\xe9</title>'].map((c) => c.charCodeAt(0)));

describe('site.read: an entry cannot be read or decoded', () => {
  it('refuses a page or referenced style sheet that is not UTF-8', () => {
    const violations = refused(
      convertSite(
        folderOf({
          'index.html': page('Home', '<link rel="stylesheet" href="a.css">'),
          'menu.html': latin1,
          'a.css': latin1,
        }),
      ),
    );
    expect(violations.map((v) => [v.code, v.path])).toEqual([
      ['site.read', 'a.css'],
      ['site.read', 'menu.html'],
    ]);
  });

  it('ignores an unreferenced style sheet that is not UTF-8', () => {
    const result = converted(
      convertSite(folderOf({ 'index.html': page('Home'), 'old.css': latin1 })),
    );
    expect(result.site.ignored).toEqual(['old.css']);
  });

  it('refuses a page nested past 512 levels, which the pages check cannot read to its end', () => {
    const deep = (tag: string, depth: number) => page('Deep', `<${tag}>`.repeat(depth) + 'x');
    const violations = refused(
      convertSite(
        folderOf({
          'index.html': deep('div', 600),
          // Inside html and body: 511 elements are 513 levels, 510 are 512, still read.
          'sub/b.html': deep('span', 511),
          'sub/c.html': deep('span', 510),
        }),
      ),
    );
    expect(violations.map((v) => [v.check, v.code, v.path, v.expected])).toEqual([
      ['site', 'site.read', 'index.html', 512],
      ['site', 'site.read', 'sub/b.html', 512],
    ]);
    expect(violations[0]?.message).toContain('nested more than 512 deep');
    // The same ZIP as the service and the CLI read it: refused, never a folder report.
    const zip = writeZip(folderOf({ 'index.html': deep('div', 600) }));
    expect(refused(convertSiteZip(zip)).map((v) => v.code)).toEqual(['site.read']);
  });

  it('converts a page nested exactly 512 levels, and the result passes the pages check', () => {
    converted(convertSite(folderOf({ 'index.html': page('Deep', '<div>'.repeat(510) + 'x') })));
  });

  it('folds a reader’s findings into site.read and site.limit', () => {
    const preViolations = [
      violation('names.traversal', { path: '../evil.html' }),
      violation('archive.crc_mismatch', {
        path: 'a.png',
        expected: '00000000',
        actual: '12345678',
      }),
      violation('limits.file_size', { path: 'big.mp4', expected: 1, actual: 2 }),
    ];
    const violations = refused(
      convertSite(folderOf({ 'index.html': page('Home') }), { preViolations }),
    );
    expect(violations.map((v) => [v.check, v.code, v.path, v.actual])).toEqual([
      ['site', 'site.read', '../evil.html', undefined],
      ['site', 'site.read', 'a.png', '12345678'],
      ['site', 'site.limit', 'big.mp4', 2],
    ]);
    expect(violations[0]?.message).toContain('names.traversal');
  });
});

describe('site.limit', () => {
  it('refuses a site whose project would break the folder limits', () => {
    const files = { 'index.html': page('Home'), 'a.png': png, 'b.png': png };
    const byCount = refused(convertSite(folderOf(files), { limits: { maxEntries: 3 } }));
    expect(byCount.map((v) => [v.code, v.path, v.expected, v.actual])).toEqual([
      ['site.limit', '', 3, 4],
    ]);
    const bySize = refused(convertSite(folderOf(files), { limits: { maxFileBytes: 90 } }));
    expect(bySize.map((v) => [v.code, v.path])).toEqual([['site.limit', 'index.html']]);
    const byTotal = refused(convertSite(folderOf(files), { limits: { maxTotalBytes: 150 } }));
    expect(byTotal.map((v) => [v.code, v.path])).toEqual([['site.limit', '']]);
  });

  it('does not count what is ignored', () => {
    const files = { 'index.html': page('Home'), 'a.docx': 'x'.repeat(1000) };
    converted(convertSite(folderOf(files), { limits: { maxEntries: 2, maxFileBytes: 500 } }));
  });
});

describe('convertSiteZip', () => {
  it('reads and converts a site ZIP, wrapping folder and __MACOSX included', () => {
    const zip = zipSync({
      'Site/index.html': new TextEncoder().encode(page('Home', '<img src="Logo.PNG">')),
      'Site/Logo.PNG': png,
      '__MACOSX/Site/._Logo.PNG': new Uint8Array([0, 5, 22, 7]),
    });
    const result = converted(convertSiteZip(zip));
    expect(result.site.ignored).toEqual(['__MACOSX/Site/._Logo.PNG']);
    expect(result.site.warnings.map((w) => [w.code, w.path, w.target])).toEqual([
      ['site.renamed', 'Site/Logo.PNG', 'logo.png'],
    ]);
    const again = readZip(writeZip(result.folder));
    expect(again.violations).toEqual([]);
    expect([...again.folder.keys()]).toEqual(['index.html', 'logo.png', 'project.json']);
  });

  it('answers hostile entries with site.read and never writes them', () => {
    const zip = zipSync({
      'index.html': new TextEncoder().encode(page('Home')),
      '../../etc/evil.html': new TextEncoder().encode('x'),
      'C:/win.html': new TextEncoder().encode('x'),
    });
    const violations = refused(convertSiteZip(zip));
    expect(violations.map((v) => v.code)).toEqual(['site.read', 'site.read']);
    expect(violations.map((v) => v.message).join(' ')).toMatch(/names\.traversal/);
  });

  it('answers limits with site.limit', () => {
    const zip = zipSync({
      'index.html': new TextEncoder().encode(page('Home')),
      'a.txt': new Uint8Array(2000),
    });
    const violations = refused(convertSiteZip(zip, { limits: { maxFileBytes: 1000 } }));
    expect(violations.map((v) => v.code)).toContain('site.limit');
    expect(violations.every((v) => v.check === 'site')).toBe(true);
  });

  it('answers bytes that are no ZIP with the archive check, not site.read', () => {
    const result = convertSiteZip(new TextEncoder().encode('<html>not a zip</html>'));
    if (result.ok) return expect.fail('converted');
    expect(result.report.checks).toEqual({ archive: 'failed' });
    expect(result.report.violations.map((v) => v.check)).toEqual(['archive']);
  });
});

describe('isPlainSiteZip: a plain site over a limit is still a plain site (decisions §4, §8)', () => {
  const encoder = new TextEncoder();
  const zipOf = (files: Record<string, string>) =>
    writeZip(new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)])));
  const texts = (prefix: string, count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}.txt`, 'x']));

  it('judges an archive with too many entries by the names it declares', () => {
    const zip = zipOf({ 'index.html': page('Home'), ...texts('', 5) });
    const read = readZip(zip, { limits: { maxEntries: 3 } });
    expect(read.folder.size).toBe(0);
    expect(read.violations.map((v) => v.code)).toEqual(['limits.entries']);
    expect(isPlainSiteZip(zip, read)).toBe(true);
    const violations = refused(convertSite(read.folder, { preViolations: read.violations }));
    expect(violations.map((v) => [v.check, v.code, v.path, v.expected, v.actual])).toEqual([
      ['site', 'site.limit', '', 3, 6],
    ]);
    expect(refused(convertSiteZip(zip, { limits: { maxEntries: 3 } }))).toEqual(violations);
  });

  it('finds the wrapping folder and project.json among the declared names as well', () => {
    const limits = { maxEntries: 3 };
    const wrapped = zipOf({ 'site/index.html': page('Home'), ...texts('site/', 5) });
    expect(isPlainSiteZip(wrapped, readZip(wrapped, { limits }))).toBe(true);
    const project = zipOf({ 'project.json': '{}', 'index.html': page('Home'), ...texts('', 5) });
    expect(isPlainSiteZip(project, readZip(project, { limits }))).toBe(false);
    const noIndex = zipOf({ 'home.html': page('Home'), ...texts('', 5) });
    expect(isPlainSiteZip(noIndex, readZip(noIndex, { limits }))).toBe(false);
  });

  it('does the same for the total size, and judges a readable archive by what was read', () => {
    const zip = zipOf({ 'index.html': page('Home'), 'a.txt': 'x'.repeat(500) });
    const read = readZip(zip, { limits: { maxTotalBytes: 300 } });
    expect(read.violations.map((v) => v.code)).toEqual(['limits.total_size']);
    expect(isPlainSiteZip(zip, read)).toBe(true);
    expect(isPlainSiteZip(zip, readZip(zip))).toBe(true);
    const project = zipOf({ 'project.json': '{}', 'index.html': page('Home') });
    expect(isPlainSiteZip(project, readZip(project))).toBe(false);
  });

  it('does not take a damaged archive with nothing read for a site', () => {
    const zip = zipOf({ 'index.html': page('Home') });
    const damaged = zip.slice(0, zip.length - 4);
    expect(isPlainSiteZip(damaged, readZip(damaged))).toBe(false);
  });
});
