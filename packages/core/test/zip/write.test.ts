import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  isZip,
  readZip,
  writeZip,
  writeZipAsync,
  streamZip,
  zipDeflateLevel,
  type Folder,
  type RawDeflate,
} from '@galley/core';
import { crc, te } from './craft.js';

const zlibDeflate: RawDeflate = (data) => deflateRawSync(data, { level: zipDeflateLevel });
const deflateRawAsync = promisify(deflateRaw);
const zlibDeflateAsync = (data: Uint8Array) => deflateRawAsync(data, { level: zipDeflateLevel });

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;

/** The central directory of an archive, parsed here independently of src/zip. */
function centralRecords(zip: Uint8Array) {
  const end = zip.length - 22;
  const records = [];
  let at = u32(zip, end + 16);
  for (let i = 0; i < u16(zip, end + 10); i++) {
    const nameLength = u16(zip, at + 28);
    const local = u32(zip, at + 42);
    records.push({
      madeBy: u16(zip, at + 4),
      flags: u16(zip, at + 8),
      method: u16(zip, at + 10),
      time: u16(zip, at + 12),
      date: u16(zip, at + 14),
      crc: u32(zip, at + 16),
      extra: u16(zip, at + 30) + u16(zip, at + 32),
      attributes: u32(zip, at + 38),
      name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)),
      local: {
        flags: u16(zip, local + 6),
        time: u16(zip, local + 10),
        date: u16(zip, local + 12),
        extra: u16(zip, local + 28),
      },
    });
    at += 46 + nameLength + u16(zip, at + 30) + u16(zip, at + 32);
  }
  return records;
}

const text = (s: string) => te.encode(s);
const html = text(
  '<!doctype html><title>x</title>' + '<p>Galley writes the same bytes.</p>'.repeat(40),
);
const compressiblePng = new Uint8Array(4000).fill(0x89);
/** Incompressible but reproducible: a chain of SHA-256 digests. */
const noise = new Uint8Array(
  Array.from({ length: 100 }, (_, i) => [...createHash('sha256').update(`${i}`).digest()]).flat(),
);

describe('writeZip', () => {
  const folder: Folder = new Map([
    ['pages/index.html', html],
    ['images/logo.png', compressiblePng],
    ['fonts/a.WOFF2', compressiblePng],
    ['empty.txt', new Uint8Array(0)],
    ['noise.txt', noise],
    ['Ünïcode/é.css', text('p{color:red}'.repeat(50))],
  ]);

  it('writes sorted entries with fixed time, attributes and flags, and no extra fields', () => {
    const records = centralRecords(writeZip(folder));
    expect(records.map((r) => r.name)).toEqual([...folder.keys()].sort());
    for (const r of records) {
      expect(r).toMatchObject({ madeBy: 0x0314, flags: 0x0800, time: 0, date: 0x21, extra: 0 });
      expect(r.attributes).toBe(0x81a40000);
      expect(r.local).toEqual({ flags: 0x0800, time: 0, date: 0x21, extra: 0 });
      expect(r.crc).toBe(crc(folder.get(r.name)!));
    }
  });

  it('stores compressed formats and what deflate cannot shrink, and deflates the rest', () => {
    const methods = Object.fromEntries(
      centralRecords(writeZip(folder)).map((r) => [r.name, r.method]),
    );
    expect(methods).toEqual({
      'empty.txt': 0,
      'fonts/a.WOFF2': 0,
      'images/logo.png': 0,
      'noise.txt': 0,
      'pages/index.html': 8,
      'Ünïcode/é.css': 8,
    });
  });

  it('is read back by independent readers (JSZip, fflate is covered by the corpus test)', async () => {
    for (const deflate of [undefined, zlibDeflate]) {
      const zip = await JSZip.loadAsync(writeZip(folder, { deflate }));
      const names = Object.values(zip.files).map((f) => f.name);
      expect(names).toEqual([...folder.keys()].sort());
      for (const [name, data] of folder) {
        expect(await zip.file(name)!.async('uint8array')).toEqual(data);
      }
    }
  });

  it('writes an empty folder as an empty archive', () => {
    const empty = writeZip(new Map());
    expect(empty.length).toBe(22);
    expect(isZip(empty)).toBe(true);
    expect(readZip(empty)).toEqual({ folder: new Map(), violations: [] });
  });

  it('lets the caller pass node:zlib without changing anything but the compressed bytes', () => {
    const withZlib = writeZip(folder, { deflate: zlibDeflate });
    const strip = (zip: Uint8Array) =>
      centralRecords(zip).map(({ name, method, crc }) => ({ name, method, crc }));
    expect(strip(withZlib)).toEqual(strip(writeZip(folder)));
    expect(readZip(withZlib)).toEqual({ folder: new Map(folder), violations: [] });
  });
});

const segment = fc.stringMatching(/^[a-z0-9_-][a-z0-9._-]{0,10}$/);
const extension = fc.constantFrom('', '.html', '.css', '.png', '.jpg', '.woff2', '.txt', '.json');
const path = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), extension)
  .map(([segments, ext]) => segments.join('/') + ext);
const content = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.string({ unit: 'grapheme', maxLength: 2000 }).map(text),
  fc.tuple(fc.string({ maxLength: 40 }), fc.nat(200)).map(([s, n]) => text(s.repeat(n))),
);
/** A folder with no path used both as a file and as a folder. */
const folders = fc
  .uniqueArray(fc.tuple(path, content), { selector: ([p]) => p, maxLength: 25 })
  .map((entries) => {
    const paths = entries.map(([p]) => p);
    return new Map(entries.filter(([p]) => !paths.some((q) => q.startsWith(`${p}/`))));
  });

describe('writeZip and readZip, property-based', () => {
  it('reads back exactly the folder it wrote, with either deflate', () => {
    fc.assert(
      fc.property(folders, fc.boolean(), (folder, zlib) => {
        const zip = writeZip(folder, zlib ? { deflate: zlibDeflate } : {});
        for (const record of centralRecords(zip))
          expect(record.crc).toBe(crc(folder.get(record.name)!));
        const r = readZip(zip);
        expect(r.violations).toEqual([]);
        expect(r.folder).toEqual(folder);
      }),
      { numRuns: 150 },
    );
  });

  it('writes the same bytes asynchronously (node:zlib off the thread) as with the same deflate', async () => {
    await fc.assert(
      fc.asyncProperty(folders, async (folder) => {
        const zip = await writeZipAsync(folder, { deflate: zlibDeflateAsync });
        expect(zip).toEqual(writeZip(folder, { deflate: zlibDeflate }));
      }),
      { numRuns: 100 },
    );
  });

  it('writes the same bytes streamed, entry by entry, with any number deflating ahead', async () => {
    await fc.assert(
      fc.asyncProperty(folders, fc.integer({ min: 1, max: 6 }), async (folder, ahead) => {
        const sources = [...folder].map(([path, bytes]) => ({
          path,
          content: () => Promise.resolve(bytes),
        }));
        const pieces: Uint8Array[] = [];
        for await (const piece of streamZip(sources, { deflate: zlibDeflateAsync, ahead })) {
          pieces.push(piece);
        }
        expect(Buffer.concat(pieces)).toEqual(
          Buffer.from(writeZip(folder, { deflate: zlibDeflate })),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('keeps the bytes of the published ZIPs: SHA-256 as written before streaming existed', async () => {
    // Reproducible ZIPs are a contract: these digests come from the writer as it was before
    // streamZip, on a folder of every kind of entry (deflated, stored, empty, non-ASCII name).
    const folder = new Map<string, Uint8Array>([
      ['index.html', te.encode('<!doctype html><title>x</title>' + 'hello world '.repeat(500))],
      ['style.css', te.encode('body{color:red}\n'.repeat(200))],
      ['img/a.png', new Uint8Array(3000).map((_, i) => (i * 7919) % 251)],
      ['empty.txt', new Uint8Array(0)],
      ['données/é.txt', te.encode('x')],
      ['random.bin', new Uint8Array(2000).map((_, i) => (i * 104729 + 7) % 256)],
    ]);
    const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
    expect(sha256(writeZip(folder))).toBe(
      'e470bf01fce30a4e130a31a28fc53a4853c36170067d855a4fffe24037a813e3',
    );
    const zlib = '2ed55865a480ffbb784ecde6ecfaf9bcf8146b94f23399405ab4af233fc905cb';
    expect(sha256(writeZip(folder, { deflate: zlibDeflate }))).toBe(zlib);
    expect(sha256(await writeZipAsync(folder, { deflate: zlibDeflateAsync }))).toBe(zlib);
    const sources = [...folder].map(([path, bytes]) => ({
      path,
      content: () => Promise.resolve(bytes),
    }));
    const pieces: Uint8Array[] = [];
    for await (const piece of streamZip(sources, { deflate: zlibDeflateAsync })) pieces.push(piece);
    expect(sha256(Buffer.concat(pieces))).toBe(zlib);
    // The CRC-32 passed in (node:zlib's, as the server does) is the same number as the core's.
    const native = { deflate: zlibDeflateAsync, crc32: (data: Uint8Array) => crc32(data) };
    expect(sha256(writeZip(folder, { deflate: zlibDeflate, crc32: native.crc32 }))).toBe(zlib);
    expect(sha256(await writeZipAsync(folder, native))).toBe(zlib);
    const natively: Uint8Array[] = [];
    for await (const piece of streamZip(sources, native)) natively.push(piece);
    expect(sha256(Buffer.concat(natively))).toBe(zlib);
  });

  it('is byte-stable: insertion order does not matter, and write(read(x)) is x', () => {
    fc.assert(
      fc.property(folders, (folder) => {
        const zip = writeZip(folder);
        expect(writeZip(new Map([...folder].reverse()))).toEqual(zip);
        expect(writeZip(readZip(zip).folder)).toEqual(zip);
      }),
      { numRuns: 150 },
    );
  });

  it('never throws, whatever the bytes, and only returns files it could vouch for', () => {
    const seedZip = writeZip(
      new Map([
        ['a.html', html],
        ['b/c.css', text('p{}'.repeat(30))],
      ]),
    );
    const mutated = fc
      .array(fc.tuple(fc.nat(seedZip.length - 1), fc.integer({ min: 0, max: 255 })), {
        maxLength: 6,
      })
      .map((edits) => {
        const copy = seedZip.slice();
        for (const [at, value] of edits) copy[at] = value;
        return copy;
      });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 400 }), mutated), (bytes) => {
        const r = readZip(bytes);
        for (const v of r.violations) expect(['archive', 'names', 'limits']).toContain(v.check);
        for (const [name, data] of r.folder) {
          expect(r.violations.some((v) => v.path === name)).toBe(false);
          expect(data.length).toBeLessThanOrEqual(html.length);
        }
      }),
      { numRuns: 500 },
    );
  });
});
