import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZip } from '@galley/core';

// Real archives from yauzl's test suite (see corpus/README.md), read in place.
const corpus = fileURLToPath(new URL('../../../../../shared/corpus/zip/', import.meta.url));
const why = existsSync(corpus) ? undefined : `no ZIP corpus at ${corpus}`;
if (why) console.warn(`skipped: ${why}`);

const list = (folder: string): string[] =>
  why
    ? []
    : readdirSync(corpus + folder)
        .filter((f) => f.endsWith('.zip'))
        .sort();
const read = (folder: string, file: string) => readZip(readFileSync(`${corpus}${folder}/${file}`));
const found = (r: ReturnType<typeof readZip>): string[] =>
  r.violations.map((v) => `${v.code} ${v.path}`);

/**
 * Archives a strict parser accepts. Most are fine here too; some must still be refused: encrypted
 * entries, backslash names, control characters, unknown methods, and (with the default limits)
 * entries compressed over 100:1.
 */
const success: Record<string, { files: string[] | number; violations: string[] }> = {
  'NtfsTimestamp.zip': { files: ['a'], violations: [] },
  'big-compression.zip': { files: [], violations: ['limits.ratio 0x21000'] },
  'big-uncompressed.zip': { files: ['0x21000'], violations: [] },
  'bogus-compression-method.zip': {
    files: [],
    violations: ['archive.unsupported_method index.js'],
  },
  'cygwin-info-zip.zip': { files: ['a.txt', 'b.txt'], violations: [] },
  'deflate.zip': { files: ['index.js'], violations: [] },
  'directories.zip': { files: ['a/a.txt'], violations: [] },
  'empty.zip': { files: [], violations: [] },
  // 1,002 small files and one 919:1 entry.
  'everything.zip': { files: 1002, violations: ['limits.ratio a/b/c/0x21000'] },
  'linux-info-zip.zip': { files: ['a.txt', 'b.txt'], violations: [] },
  'sloppy-filenames.zip': { files: ['b.txt'], violations: ['names.backslash a\\txt'] },
  'streaming.zip': { files: ['test1.txt', 'test2.txt'], violations: [] },
  'traditional-encryption-and-compression.zip': {
    files: [],
    violations: ['archive.encrypted a.bin'],
  },
  'traditional-encryption-and-compression_deprecated.zip': {
    files: [],
    violations: ['archive.encrypted a.bin'],
  },
  'traditional-encryption.zip': { files: [], violations: ['archive.encrypted a.txt'] },
  'traditional-encryption_deprecated.zip': { files: [], violations: ['archive.encrypted a.txt'] },
  // The stored name is bytes 0x00–0x0f; the Info-ZIP Unicode Path field is ignored on purpose.
  'unicode-path-extra-field.zip': {
    files: [],
    violations: [
      `names.control_character ${Array.from({ length: 16 }, (_, i) => `\\u${i.toString(16).padStart(4, '0')}`).join('')}`,
    ],
  },
  'unicode.zip': {
    files: [
      'Turmion Kätilöt/Hoitovirhe/Rautaketju.mp3',
      'Turmion Kätilöt/Pirun nyrkki/Mistä veri pakenee.mp3',
    ],
    violations: [],
  },
  'unix-epoch.zip': { files: ['unix-epoch.txt'], violations: [] },
  'windows-7-zip.zip': { files: ['a.txt', 'b.txt'], violations: [] },
  'windows-compressed-folder.zip': { files: ['a.txt', 'b.txt'], violations: [] },
  // Central sizes that the data descriptors and the streams contradict.
  'wrong-entry-sizes.zip': {
    files: [],
    violations: [
      'archive.size_mismatch a.txt',
      'archive.size_mismatch b.txt',
      'archive.header_mismatch c/',
    ],
  },
  'zip64.zip': { files: ['test1.txt', 'test2.txt'], violations: [] },
};

/** yauzl's malformed archives: each file name is yauzl's error; the code says the same here. */
const failure: Record<string, string[]> = {
  'End of central directory record signature not found Either not a zip file or file is truncated.zip':
    ['archive.truncated '],
  'End of central directory record signature not found Either not a zip file or file is truncated_1.zip':
    ['archive.not_zip '],
  'Invalid comment length Expected 1 Found 0 Are there extra bytes at the end of the file Or is the end of central dir signature PK in the com.zip':
    ['archive.data_after_archive '],
  'absolute path C xt.zip': ['names.drive_letter C:/xt'],
  'absolute path atxt.zip': ['names.absolute /atxt'],
  'compressed uncompressed size mismatch for stored file 2147483647 5.zip': [
    'archive.size_mismatch a.txt',
  ],
  'extra field length exceeds extra field buffer size.zip': ['archive.corrupt b.txt'],
  'file data overflows file bounds 63 2147483647 308.zip': ['archive.truncated a.txt'],
  'invalid central directory file header signature 0x1014b50.zip': ['archive.corrupt '],
  'invalid characters in fileName a txt.zip': ['names.backslash a\\txt'],
  'invalid code lengths set.zip': ['archive.corrupt index.js'],
  'invalid local file header signature 0x3034b50.zip': ['archive.corrupt b.txt'],
  'invalid relative path xt.zip': ['names.traversal ../xt'],
  'invalid zip64 end of central directory record signature.zip': ['archive.corrupt '],
  'multi-disk zip files are not supported found disk number 1.zip': ['archive.multi_disk '],
  // yauzl trusts the (edited) central size and then counts the stream; the local header still
  // holds the true size, so the disagreement is caught before inflating.
  'not enough bytes in the stream expected 2048576 got only 1000000.zip': [
    'archive.header_mismatch zeros.bin',
  ],
  'strong encryption is not supported.zip': ['archive.encrypted a.txt'],
  'too many bytes in the stream expected 82496 got at least 98304.zip': [
    'archive.header_mismatch zeros.bin',
  ],
  'too many length or distance symbols.zip': ['archive.corrupt index.js'],
  // No ZIP64 field for the 0xffffffff offset: the header would lie past the end of the file.
  'unexpected EOF.zip': ['archive.data_before_archive ', 'archive.truncated empty.txt'],
  'unsupported compression method 1.zip': ['archive.unsupported_method b.txt'],
  'zip64 extended information extra field does not include compressed size.zip': [
    'archive.corrupt empty.txt',
  ],
  'zip64 extended information extra field does not include relative header offset.zip': [
    'archive.corrupt empty.txt',
  ],
  'zip64 extended information extra field does not include uncompressed size.zip': [
    'archive.corrupt empty.txt',
  ],
};

describe.skipIf(!!why)('yauzl archives a strict parser accepts', () => {
  it('has an expected outcome for every archive of the corpus', () => {
    expect(list('yauzl-success')).toEqual(Object.keys(success).sort());
  });
  for (const file of list('yauzl-success')) {
    it(file, () => {
      const expected = success[file]!;
      const r = read('yauzl-success', file);
      expect(found(r)).toEqual(expected.violations);
      if (typeof expected.files === 'number') expect(r.folder.size).toBe(expected.files);
      else expect([...r.folder.keys()]).toEqual(expected.files);
    });
  }

  it('unpacks the same bytes as fflate where both accept an archive', () => {
    for (const file of [
      'deflate.zip',
      'everything.zip',
      'unicode.zip',
      'zip64.zip',
      'streaming.zip',
    ]) {
      const bytes = readFileSync(`${corpus}yauzl-success/${file}`);
      const ours = readZip(bytes, { limits: { maxRatio: Infinity } }).folder;
      const theirs = Object.entries(unzipSync(bytes)).filter(([name]) => !name.endsWith('/'));
      expect([...ours.keys()].sort()).toEqual(theirs.map(([name]) => name).sort());
      for (const [name, data] of theirs) {
        expect(ours.get(name)?.constructor).toBe(Uint8Array);
        expect(Buffer.compare(ours.get(name)!, data), name).toBe(0);
      }
    }
  });

  it('reads the 919:1 entry when the ratio limit allows it', () => {
    const r = readZip(readFileSync(`${corpus}yauzl-success/big-compression.zip`), {
      limits: { maxRatio: 1000 },
    });
    expect(r.violations).toEqual([]);
    expect(r.folder.get('0x21000')?.length).toBe(0x21000);
  });
});

describe.skipIf(!!why)('yauzl malformed archives', () => {
  it('has an expected outcome for every archive of the corpus', () => {
    expect(list('yauzl-failure')).toEqual(Object.keys(failure).sort());
  });
  for (const file of list('yauzl-failure')) {
    it(file, () => {
      const r = read('yauzl-failure', file);
      expect(found(r)).toEqual(failure[file]);
      // Whatever else it holds, a refused entry never reaches the folder.
      for (const v of r.violations) expect(r.folder.has(v.path)).toBe(false);
    });
  }
});
