import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { checkZip, declaredSize, readZip, type ReadZipResult } from '@galley/core';
import { projectJson, html, utf8 } from '../checks/fixtures.js';
import { MiB } from './bombs.js';
import { patchEntry } from './patch.js';

const codes = (r: ReadZipResult): string[] => r.violations.map((v) => `${v.code} ${v.path}`);

/** A valid project folder with `big.txt` (30 bytes), stored (level 0) or deflated. */
function projectWithBig(level: 0 | 6): Uint8Array {
  return zipSync({
    'project.json': utf8(projectJson()),
    'index.html': utf8(html()),
    'big.txt': [utf8('thirty bytes of honest text..\n'), { level }],
  });
}

const declare60MiB = (zip: Uint8Array) =>
  patchEntry(zip, 'big.txt', 'uncompressedSize', () => 60 * MiB);

describe('the per-file limit is judged on declared sizes, whatever else is wrong (decisions §4)', () => {
  it('fails limits for a deflated entry declaring 60 MiB, before inflating it', () => {
    const r = readZip(declare60MiB(projectWithBig(6)));
    expect(codes(r)).toEqual(['limits.file_size big.txt']);
    expect(r.violations[0]).toMatchObject({ expected: 50 * MiB, actual: 60 * MiB });
  });

  it('fails limits as well for a stored entry declaring 60 MiB over 30 bytes', () => {
    const zip = declare60MiB(projectWithBig(0));
    const r = readZip(zip);
    expect(codes(r)).toEqual(['archive.size_mismatch big.txt', 'limits.file_size big.txt']);
    expect(r.violations[1]).toMatchObject({
      check: 'limits',
      expected: 50 * MiB,
      actual: 60 * MiB,
    });
    expect(r.folder.has('big.txt')).toBe(false);
    expect([...r.folder.keys()].sort()).toEqual(['index.html', 'project.json']);

    const report = checkZip(zip);
    expect(report.checks).toMatchObject({ archive: 'failed', limits: 'failed' });
    expect(report.violations.map((v) => [v.check, v.code, v.path])).toEqual([
      ['archive', 'archive.size_mismatch', 'big.txt'],
      ['limits', 'limits.file_size', 'big.txt'],
    ]);
  });

  it('does the same for an encrypted entry, and lets a declared size within the limit pass', () => {
    const encrypted = patchEntry(declare60MiB(projectWithBig(6)), 'big.txt', 'flags', (f) => f | 1);
    expect(codes(readZip(encrypted))).toEqual([
      'archive.encrypted big.txt',
      'limits.file_size big.txt',
    ]);
    const stored = patchEntry(projectWithBig(0), 'big.txt', 'uncompressedSize', () => 40 * MiB);
    expect(codes(readZip(stored))).toEqual(['archive.size_mismatch big.txt']);
    expect(checkZip(stored).checks.limits).toBe('passed');
  });
});

describe('declaredSize: the bytes the central directory says the entries hold', () => {
  it('adds every entry as declared, without inflating any', () => {
    const zip = projectWithBig(6);
    const entries = [projectJson(), html(), 'thirty bytes of honest text..\n'];
    const expected = entries.reduce((sum, text) => sum + utf8(text).length, 0);
    expect(declaredSize(zip, 10)).toBe(expected);
    expect(declaredSize(declare60MiB(zip), 10)).toBe(expected - 30 + 60 * MiB);
  });

  it('is undefined for bytes with no readable directory, or more entries than allowed', () => {
    expect(declaredSize(utf8('not a zip'), 10)).toBeUndefined();
    expect(declaredSize(projectWithBig(6), 2)).toBeUndefined();
  });
});
