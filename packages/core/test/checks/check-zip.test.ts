import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { checkFolder, checkZip, writeZip } from '@galley/core';
import { html, utf8, webFolder } from './fixtures.js';

describe('checkZip', () => {
  it('gives the folder report of a valid project ZIP', () => {
    const folder = webFolder({ 'a.txt': 'x' });
    const report = checkZip(writeZip(folder));
    expect(Object.values(report.checks)).toEqual(Array(8).fill('passed'));
    expect(report).toEqual(checkFolder(folder));
  });

  it('fails archive for bytes that are not a ZIP, and judges nothing else', () => {
    const report = checkZip(utf8('<html>definitely not a zip</html>'));
    expect(report.checks.archive).toBe('failed');
    expect(report.violations.map((v) => v.code)).toEqual(['archive.not_zip']);
    const others = Object.entries(report.checks).filter(([name]) => name !== 'archive');
    expect(others.every(([, outcome]) => outcome === 'unchecked')).toBe(true);
  });

  it('merges readZip refusals of hostile entries with the checks of the rest', () => {
    const zip = zipSync({
      'project.json': utf8(
        JSON.stringify({
          format: 1,
          title: 't',
          media: { id: 'web', version: 1 },
          pages: [{ file: 'index.html', title: 't', public_url: '/' }],
        }),
      ),
      'index.html': utf8(html({ body: '<img src="../evil.png" alt="">' })),
      '../evil.png': utf8('x'),
    });
    const report = checkZip(zip);
    expect(report.checks).toMatchObject({
      names: 'failed',
      links: 'failed',
      project: 'passed',
      pages: 'passed',
    });
    expect(report.violations.map((v) => [v.path, v.code])).toEqual([
      ['../evil.png', 'names.traversal'],
      ['index.html', 'links.outside'],
    ]);
  });

  it('passes configured limits to the reader', () => {
    const report = checkZip(writeZip(webFolder({ 'a.txt': 'x' })), { limits: { maxEntries: 2 } });
    expect(report.checks.limits).toBe('failed');
  });
});
