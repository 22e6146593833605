import { describe, expect, it } from 'vitest';
import { checkFolder } from '@galley/core';
import { webFolder } from './fixtures.js';

const namesOf = (extra: Record<string, string>) =>
  checkFolder(webFolder(extra))
    .violations.filter((v) => v.check === 'names')
    .map((v) => [v.path, v.code]);

describe('names check', () => {
  it('accepts lower-case relative paths of a-z, 0-9, ".", "_" and "-"', () => {
    expect(namesOf({ 'css/site-1.min.css': '', 'img/a_b.v2/x.png.txt': '' })).toEqual([]);
  });

  it('gives the most basic problem of each path', () => {
    expect(
      namesOf({
        '/abs.txt': '',
        'C:/x.txt': '',
        'a\\b.txt': '',
        '../up.txt': '',
        './here.txt': '',
        'dir/.git/config': '',
        'Photo.txt': '',
        'naïve.txt': '',
      }),
    ).toEqual([
      ['../up.txt', 'names.traversal'],
      ['./here.txt', 'names.not_canonical'],
      ['/abs.txt', 'names.absolute'],
      ['C:/x.txt', 'names.drive_letter'],
      ['Photo.txt', 'names.characters'],
      ['a\\b.txt', 'names.backslash'],
      ['dir/.git/config', 'names.hidden'],
      ['naïve.txt', 'names.characters'],
    ]);
  });

  it('tells NFD apart from NFC', () => {
    expect(namesOf({ 'cafe\u0301.txt': '', 'caf\u00e9.txt': '' })).toEqual(
      [
        ['café.txt', 'names.characters'],
        ['cafe\u0301.txt', 'names.not_nfc'],
        ['café.txt', 'names.duplicate'],
      ].sort(),
    );
  });

  it('counts the 200-byte limit in UTF-8 bytes', () => {
    const ok = `${'a'.repeat(196)}.txt`; // 200 bytes
    expect(namesOf({ [ok]: '' })).toEqual([]);
    const report = checkFolder(webFolder({ [`${'a'.repeat(197)}.txt`]: '' }));
    expect(report.violations[0]).toMatchObject({
      code: 'names.too_long',
      expected: 200,
      actual: 201,
    });
  });

  it('finds case collisions and a file used as a folder', () => {
    expect(namesOf({ 'x.txt': '', 'X.txt': '', lib: '', 'lib/a.txt': '' })).toEqual([
      ['X.txt', 'names.characters'],
      ['lib', 'names.duplicate'],
      ['x.txt', 'names.duplicate'],
    ]);
  });
});
