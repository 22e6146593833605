import { describe, expect, it } from 'vitest';
import { readZip, writeZip, type ReadZipResult } from '@galley/core';
import { lyingBomb, MiB, nestedBomb, overlapBomb, ratioBomb } from './bombs.js';
import {
  centralHeader,
  concat,
  crc,
  craftZip,
  deflate,
  endRecord,
  localHeader,
  peakGrowth,
  te,
} from './craft.js';

const memoryBudget = 200 * MiB;

/** Reads under the memory budget; returns the result for the caller's own assertions. */
function readWithinBudget(
  bytes: Uint8Array,
  limits?: Parameters<typeof readZip>[1],
): ReadZipResult {
  const { result, bytes: growth } = peakGrowth(() => readZip(bytes, limits));
  expect(growth).toBeLessThan(memoryBudget);
  return result;
}

const codes = (r: ReadZipResult): string[] => r.violations.map((v) => `${v.code} ${v.path}`);

describe('zip bombs are refused in bounded memory', () => {
  it('refuses a ratio bomb from its declared sizes, before inflating it', () => {
    const r = readWithinBudget(ratioBomb(48 * MiB));
    expect(codes(r)).toEqual(['limits.ratio zeros.bin']);
    expect(r.violations[0]).toMatchObject({ check: 'limits', expected: 100 });
    expect(r.folder.size).toBe(0);
  });

  it('stops inflating an entry that produces more than it declares, and unpacks nothing more', () => {
    const r = readWithinBudget(lyingBomb(64 * MiB));
    expect(codes(r)).toEqual(['archive.size_mismatch m.txt']);
    const produced = r.violations[0]!.actual as number;
    expect(produced).toBeGreaterThan(1000);
    // Stopped within one bounded step, far from the 64 MiB the stream would produce.
    expect(produced).toBeLessThan(20 * MiB);
    expect(r.folder.size).toBe(0);
  });

  it('refuses every entry of an overlapping-entry bomb, even with the other limits lifted', () => {
    const bomb = overlapBomb(100, MiB);
    expect(bomb.length).toBeLessThan(20_000);
    const lifted = { maxRatio: Infinity, maxTotalBytes: Infinity, maxFileBytes: Infinity };
    for (const limits of [undefined, lifted]) {
      const r = readWithinBudget(bomb, { limits });
      expect(r.folder.size).toBe(0);
      expect(new Set(r.violations.map((v) => v.code))).toEqual(
        new Set(['archive.overlapping_entries']),
      );
      expect(r.violations).toHaveLength(100);
    }
  });

  it('refuses records that all point at one local header (the simplest overlap)', () => {
    const content = new Uint8Array(MiB);
    const data = deflate(content);
    const header = { flags: 0x0800, method: 8, crc: crc(content), extra: new Uint8Array(0) };
    const sizes = { compressedSize: data.length, uncompressedSize: content.length };
    const local = concat(localHeader({ ...header, ...sizes, name: te.encode('k0') }), data);
    for (const names of [
      ['k0', 'k0', 'k0'],
      ['k0', 'k1', 'k2'],
    ]) {
      const central = concat(
        ...names.map((name) =>
          centralHeader({
            ...header,
            ...sizes,
            name: te.encode(name),
            madeBy: 0x0314,
            externalAttributes: 0,
            diskStart: 0,
            localOffset: 0,
          }),
        ),
      );
      const end = endRecord({
        disk: 0,
        directoryDisk: 0,
        entriesOnDisk: 3,
        entries: 3,
        directorySize: central.length,
        directoryOffset: local.length,
        comment: new Uint8Array(0),
      });
      const r = readWithinBudget(concat(local, central, end));
      expect(r.folder.size).toBe(0);
      expect(codes(r)).toEqual(
        names[1] === 'k0'
          ? [
              'archive.overlapping_entries k0',
              'archive.overlapping_entries k0',
              'archive.overlapping_entries k0',
            ]
          : [
              'archive.overlapping_entries k0',
              'archive.header_mismatch k1',
              'archive.header_mismatch k2',
            ],
      );
    }
  });

  it('never unpacks a 42-style nested bomb: its archives stay opaque files', () => {
    const bomb = nestedBomb(4, 16, 16 * MiB);
    expect(bomb.length).toBeLessThan(100_000);
    const top = readWithinBudget(bomb);
    expect(top.violations).toEqual([]);
    expect([...top.folder.keys()]).toEqual(
      Array.from({ length: 16 }, (_, i) => `${i.toString(16)}.zip`),
    );
    const unpacked = [...top.folder.values()].reduce((n, b) => n + b.length, 0);
    expect(unpacked).toBeLessThan(MiB);
    // A caller that opens the layers one by one is stopped at the core, still without inflating it.
    let layer = top.folder.get('0.zip')!;
    for (let level = 1; level < 4; level++) {
      const inner = readWithinBudget(layer);
      expect(inner.violations).toEqual([]);
      layer = inner.folder.get('0.zip')!;
    }
    expect(codes(readWithinBudget(layer))).toEqual(['limits.ratio 0.dll']);
  });
});

describe('archive limits', () => {
  it('refuses 10,000 tiny entries from the end record alone', () => {
    const tiny = new Map(Array.from({ length: 10_000 }, (_, i) => [`f/${i}.txt`, te.encode('x')]));
    const archive = writeZip(tiny);
    const r = readWithinBudget(archive);
    expect(codes(r)).toEqual(['limits.entries ']);
    expect(r.violations[0]).toMatchObject({ expected: 5000, actual: 10_000 });
    expect(r.folder.size).toBe(0);
    // The same archive is fine when the limit allows it.
    expect(readZip(archive, { limits: { maxEntries: 10_000 } }).folder.size).toBe(10_000);
  });

  it('sums declared sizes against the total before inflating anything', () => {
    const files = ['a', 'b', 'c'].map((name) => ({
      name,
      content: new Uint8Array(1000).fill(7),
      method: 8,
    }));
    const r = readZip(craftZip(files), { limits: { maxTotalBytes: 2500 } });
    expect(codes(r)).toEqual(['limits.total_size ']);
    expect(r.violations[0]).toMatchObject({ expected: 2500, actual: 3000 });
    expect(r.folder.size).toBe(0);
  });

  it('refuses a file over the per-file limit and keeps the others', () => {
    const r = readZip(
      craftZip([
        { name: 'big.txt', content: new Uint8Array(2000) },
        { name: 'ok.txt', content: te.encode('ok') },
      ]),
      { limits: { maxFileBytes: 1000 } },
    );
    expect(codes(r)).toEqual(['limits.file_size big.txt']);
    expect([...r.folder.keys()]).toEqual(['ok.txt']);
  });

  it('refuses an archive over the size limit without reading it', () => {
    const archive = craftZip([{ name: 'a.txt', content: new Uint8Array(5000) }]);
    const r = readZip(archive, { limits: { maxArchiveBytes: 4000 } });
    expect(codes(r)).toEqual(['limits.archive_size ']);
  });

  it('keeps the default for a limit given as undefined', () => {
    const r = readZip(ratioBomb(4 * MiB), { limits: { maxRatio: undefined } });
    expect(codes(r)).toEqual(['limits.ratio zeros.bin']);
  });

  it('applies the ratio limit only above its minimum size', () => {
    const small = craftZip([{ name: 's.txt', content: new Uint8Array(100 * 1024), method: 8 }]);
    expect(readZip(small).violations).toEqual([]);
  });
});

describe('archive defects', () => {
  const file = { name: 'a.txt', content: te.encode('hello, archive') };

  it('refuses encrypted entries (traditional, strong, AES)', () => {
    for (const entry of [
      { ...file, flags: 0x0801 },
      { ...file, flags: 0x0841 },
      { ...file, method: 99 },
    ]) {
      expect(codes(readZip(craftZip([entry])))).toEqual(['archive.encrypted a.txt']);
    }
  });

  it('refuses symlinks, devices, FIFOs and directory-typed files', () => {
    const modes = [0o120777, 0o020644, 0o060644, 0o010644, 0o140755];
    for (const mode of modes) {
      const link = { ...file, externalAttributes: (mode << 16) >>> 0 };
      expect(codes(readZip(craftZip([link])))).toEqual(['archive.special_entry a.txt']);
    }
    const dosDirectory = { ...file, externalAttributes: 0x10, madeBy: 0x0014 };
    expect(codes(readZip(craftZip([dosDirectory])))).toEqual(['archive.special_entry a.txt']);
  });

  it('reads every truncation of an archive without throwing, and flags each', () => {
    const whole = craftZip([
      file,
      { name: 'b/c.txt', content: te.encode('x'.repeat(300)), method: 8 },
    ]);
    for (let length = 0; length < whole.length; length++) {
      const r = readZip(whole.subarray(0, length));
      expect(r.violations.length).toBeGreaterThan(0);
      expect(r.violations.every((v) => v.check === 'archive')).toBe(true);
      expect(r.folder.size).toBe(0);
    }
    expect(codes(readZip(whole.subarray(0, whole.length - 1)))).toEqual(['archive.truncated ']);
  });

  it('refuses a CRC mismatch found while unpacking', () => {
    const stored = craftZip([file]);
    stored[30 + 5] = stored[30 + 5]! ^ 0xff; // first data byte
    expect(codes(readZip(stored))).toEqual(['archive.crc_mismatch a.txt']);
    const lied = { ...file, method: 8, central: { crc: 1234 }, local: { crc: 1234 } };
    const r = readZip(craftZip([lied]));
    expect(codes(r)).toEqual(['archive.crc_mismatch a.txt']);
    expect(r.violations[0]).toMatchObject({ expected: '000004d2' });
  });

  it('refuses data before the archive, whether or not offsets account for it', () => {
    const stub = te.encode('MZ\x90\x00 this program cannot be run in DOS mode');
    const adjusted = readZip(craftZip([file], { prefix: stub }));
    expect(codes(adjusted)).toEqual(['archive.data_before_archive ']);
    expect(adjusted.folder.get('a.txt')).toEqual(file.content);
    const unadjusted = readZip(craftZip([file], { prefix: stub, unadjusted: true }));
    expect(codes(unadjusted)).toEqual(['archive.data_before_archive ']);
    expect(unadjusted.folder.size).toBe(0);
  });

  it('refuses data after the archive, and an end record forged inside the comment', () => {
    expect(codes(readZip(craftZip([file], { suffix: te.encode('tail') })))).toEqual([
      'archive.data_after_archive ',
    ]);
    const honest = craftZip([file]);
    const fakeEnd = honest.subarray(honest.length - 22);
    const forged = craftZip([file], { end: { comment: fakeEnd } });
    expect(codes(readZip(forged))).toEqual(['archive.corrupt ']);
  });

  it('refuses local headers that disagree with the central directory', () => {
    const cases = [
      { local: { name: te.encode('b.txt') } },
      { local: { method: 8 } },
      { local: { crc: 1 } },
      { local: { compressedSize: 3 } },
      { local: { uncompressedSize: 3 } },
      { local: { flags: 0x0801 }, central: {} },
    ];
    for (const defect of cases) {
      expect(codes(readZip(craftZip([{ ...file, ...defect }])))).toEqual([
        'archive.header_mismatch a.txt',
      ]);
    }
    const noLocal = craftZip([{ ...file, central: { localOffset: 1 } }]);
    // Nothing points at the real header any more: its bytes are data before the archive.
    expect(codes(readZip(noLocal))).toEqual([
      'archive.data_before_archive ',
      'archive.corrupt a.txt',
    ]);
  });

  it('refuses multi-disk archives', () => {
    for (const end of [{ disk: 1 }, { directoryDisk: 1 }, { entriesOnDisk: 0 }]) {
      expect(codes(readZip(craftZip([file], { end })))).toEqual(['archive.multi_disk ']);
    }
  });

  it('refuses methods other than stored and deflate', () => {
    for (const method of [1, 9, 12, 14, 93, 95]) {
      const r = readZip(craftZip([{ ...file, method }]));
      expect(codes(r)).toEqual(['archive.unsupported_method a.txt']);
      expect(r.violations[0]).toMatchObject({ expected: [0, 8], actual: method });
    }
  });

  it('refuses damaged DEFLATE data and a stream shorter than declared', () => {
    const garbage = { ...file, method: 8, data: new Uint8Array(20).fill(0xff) };
    expect(codes(readZip(craftZip([garbage])))).toEqual(['archive.corrupt a.txt']);
    const short = {
      ...file,
      method: 8,
      central: { uncompressedSize: 99 },
      local: { uncompressedSize: 99 },
    };
    const r = readZip(craftZip([short]));
    expect(codes(r)).toEqual(['archive.size_mismatch a.txt']);
    expect(r.violations[0]).toMatchObject({ expected: 99, actual: file.content.length });
  });

  it('reads ZIP64 end records and extra fields', () => {
    const r = readZip(
      craftZip([file, { name: 'b.txt', content: te.encode('b'), method: 8 }], { zip64: true }),
    );
    expect(r.violations).toEqual([]);
    expect([...r.folder.keys()]).toEqual(['a.txt', 'b.txt']);
  });

  it('reports an unreadable input as not a ZIP, and never throws', () => {
    for (const input of [
      new Uint8Array(0),
      te.encode('<!doctype html>'),
      new Uint8Array(100_000).fill(0x50),
    ]) {
      expect(codes(readZip(input))).toEqual(['archive.not_zip ']);
    }
    // Starting like a ZIP but without an end record: a truncated archive.
    expect(codes(readZip(concat(te.encode('PK\x03\x04'), new Uint8Array(40))))).toEqual([
      'archive.truncated ',
    ]);
  });
});
