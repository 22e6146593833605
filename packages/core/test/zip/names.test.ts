import { describe, expect, it } from 'vitest';
import { readZip } from '@galley/core';
import { craftZip, te } from './craft.js';

const content = te.encode('payload');
const single = (name: string | Uint8Array, flags = 0x0800) =>
  readZip(craftZip([{ name, content, flags }]));

describe('zip slip, in every spelling', () => {
  const hostile: [string, string][] = [
    ['../evil.sh', 'names.traversal'],
    ['..', 'names.traversal'],
    ['../', 'names.traversal'],
    ['a/..', 'names.traversal'],
    ['a/../../evil.sh', 'names.traversal'],
    ['./../evil.sh', 'names.traversal'],
    ['a/b/../../../evil.sh', 'names.traversal'],
    ['..\\evil.sh', 'names.backslash'],
    ['a\\..\\..\\evil.sh', 'names.backslash'],
    ['\\\\server\\share\\evil.sh', 'names.backslash'],
    ['C:\\Windows\\evil.dll', 'names.backslash'],
    ['/etc/passwd', 'names.absolute'],
    ['//server/share/evil.sh', 'names.absolute'],
    ['/', 'names.absolute'],
    ['C:/Windows/evil.dll', 'names.drive_letter'],
    ['c:evil.dll', 'names.drive_letter'],
    ['Z:', 'names.drive_letter'],
    ['a\u0000.html', 'names.control_character'],
    ['evil\n.html', 'names.control_character'],
    ['\u001b[31mred.html', 'names.control_character'],
    ['a\u0085b.html', 'names.control_character'],
    ['del\u007f.html', 'names.control_character'],
    ['', 'names.not_canonical'],
    ['a//b.html', 'names.not_canonical'],
    ['./a.html', 'names.not_canonical'],
    ['a/./b.html', 'names.not_canonical'],
  ];
  for (const [name, code] of hostile) {
    it(`refuses ${JSON.stringify(name)} with ${code}`, () => {
      const r = single(name);
      expect(r.violations.map((v) => v.code)).toEqual([code]);
      expect(r.violations[0]!.check).toBe('names');
      expect(r.folder.size).toBe(0);
    });
  }

  it('refuses hostile names in code page 437 archives (no UTF-8 flag) the same way', () => {
    expect(single('../evil.sh', 0).violations.map((v) => v.code)).toEqual(['names.traversal']);
  });

  it('refuses hostile directory entries too, although directories never reach the folder', () => {
    const r = readZip(
      craftZip([{ name: '../up/' }, { name: 'ok/' }, { name: 'ok/a.txt', content }]),
    );
    expect(r.violations.map((v) => `${v.code} ${v.path}`)).toEqual(['names.traversal ../up/']);
    expect([...r.folder.keys()]).toEqual(['ok/a.txt']);
  });

  it('keeps harmless look-alikes, whose later checks are the names check’s business', () => {
    for (const name of [
      '..a/b.html',
      'a../b.html',
      '...',
      'a/…/b.html',
      'ａ:/b.html',
      '%2e%2e/b',
    ]) {
      const r = single(name);
      expect(r.violations).toEqual([]);
      expect([...r.folder.keys()]).toEqual([name]);
    }
  });
});

describe('duplicate names', () => {
  const names = (...list: string[]) => readZip(craftZip(list.map((name) => ({ name, content }))));
  const refused = (r: ReturnType<typeof names>) =>
    r.violations.map((v) => `${v.code} ${v.path}`).sort();

  it('refuses every copy of an exact duplicate (later copies must not win silently)', () => {
    const r = names('a.html', 'a.html', 'b.html');
    expect(refused(r)).toEqual(['names.duplicate a.html', 'names.duplicate a.html']);
    expect([...r.folder.keys()]).toEqual(['b.html']);
  });

  it('compares after case folding and Unicode NFC', () => {
    const pairs = [
      ['Index.HTML', 'index.html'],
      ['caf\u00e9.css', 'cafe\u0301.css'], // NFC and NFD spellings of café
      ['stra\u00dfe.txt', 'STRASSE.txt'], // ß folds to ss
      ['\u212a.txt', 'k.txt'], // Kelvin sign
    ];
    for (const [a, b] of pairs) {
      const r = names(a!, b!, 'other.txt');
      expect(refused(r)).toEqual([`names.duplicate ${a}`, `names.duplicate ${b}`].sort());
      expect([...r.folder.keys()]).toEqual(['other.txt']);
    }
  });

  it('refuses a path that is both a file and a folder', () => {
    const r = names('docs', 'Docs/a.html', 'c.html');
    expect(refused(r)).toEqual(['names.duplicate docs']);
    expect([...r.folder.keys()]).toEqual(['Docs/a.html', 'c.html']);
    const explicit = readZip(craftZip([{ name: 'x/' }, { name: 'X', content }]));
    expect(refused(explicit)).toEqual(['names.duplicate X']);
  });

  it('lets a directory entry repeat the folder of its files', () => {
    const r = readZip(craftZip([{ name: 'a/' }, { name: 'A/' }, { name: 'a/b.txt', content }]));
    expect(r.violations).toEqual([]);
    expect([...r.folder.keys()]).toEqual(['a/b.txt']);
  });
});

describe('name encodings', () => {
  it('refuses a name flagged UTF-8 that is not', () => {
    const r = single(Uint8Array.of(0x61, 0xff, 0x2e, 0x74), 0x0800);
    expect(r.violations.map((v) => `${v.code} ${v.path}`)).toEqual(['names.encoding a\u00a0.t']);
  });

  it('reads unflagged names as UTF-8 when valid, else as code page 437', () => {
    expect([...single(te.encode('caf\u00e9.txt'), 0).folder.keys()]).toEqual(['caf\u00e9.txt']);
    const cp437 = Uint8Array.of(0x80, 0x82, 0x2e, 0x74, 0x78, 0x74); // "Çé.txt"
    expect([...single(cp437, 0).folder.keys()]).toEqual(['\u00c7\u00e9.txt']);
  });

  it('escapes control and bidirectional characters in the path it reports', () => {
    const r = single('evil\u202egnp.html\u0007');
    expect(r.violations[0]!.path).toBe('evil\\u202egnp.html\\u0007');
  });
});
