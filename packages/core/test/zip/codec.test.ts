// readZip with a platform codec (node:zlib's inflate and CRC-32, as the CLI passes them) and stored
// files as views reads what it reads without: the same files, byte for byte, and the same
// violations, for honest archives, hostile ones, and every archive of the yauzl corpus.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readZip, type ZipCodec } from '@galley/core';
import { lyingBomb, MiB, overlapBomb, ratioBomb } from './bombs.js';
import { craftZip, te } from './craft.js';

const zlibCodec: ZipCodec = {
  inflateRaw(compressed, size) {
    try {
      return new Uint8Array(inflateRawSync(compressed, { maxOutputLength: size + 1 }));
    } catch {
      return undefined;
    }
  },
  crc32: (data) => crc32(data),
};

function expectSameReading(zip: Uint8Array, limits = {}): void {
  const core = readZip(zip, { limits });
  const platform = readZip(zip, { limits, codec: zlibCodec, storedAsViews: true });
  expect(platform.violations).toEqual(core.violations);
  expect([...platform.folder.keys()]).toEqual([...core.folder.keys()]);
  for (const [path, bytes] of core.folder)
    expect(Buffer.compare(platform.folder.get(path)!, bytes), path).toBe(0);
}

const corpus = fileURLToPath(new URL('../../../../../shared/corpus/zip/', import.meta.url));
const archives = existsSync(corpus)
  ? ['yauzl-success', 'yauzl-failure'].flatMap((folder) =>
      readdirSync(corpus + folder)
        .filter((f) => f.endsWith('.zip'))
        .map((f) => `${corpus}${folder}/${f}`),
    )
  : [];
if (archives.length === 0) console.warn(`skipped: no ZIP corpus at ${corpus}`);

describe('readZip with a platform codec and stored files as views', () => {
  it('reads honest archives, stored and deflated, to the same bytes', () => {
    const text = te.encode('a page of honest text\n'.repeat(5000));
    expectSameReading(
      craftZip([
        { name: 'a.txt', content: text, method: 8 },
        { name: 'b.bin', content: text, method: 0 },
        { name: 'empty.txt', content: new Uint8Array(0), method: 8 },
      ]),
    );
  });

  it('refuses what core refuses, with the same violations: lies, bombs, damage', () => {
    const file = { name: 'a.txt', content: te.encode('hello, world'), method: 8 };
    const declares = (uncompressedSize: number) => ({
      ...file,
      central: { uncompressedSize },
      local: { uncompressedSize },
    });
    for (const zip of [
      lyingBomb(20 * MiB),
      ratioBomb(5 * MiB),
      overlapBomb(20, 100_000),
      craftZip([{ ...file, data: new Uint8Array(20).fill(0xff) }]),
      craftZip([declares(99)]),
      craftZip([declares(4)]),
      craftZip([{ ...file, central: { crc: 1 }, local: { crc: 1 } }]),
    ]) {
      expect(readZip(zip).violations).not.toEqual([]);
      expectSameReading(zip);
    }
    expectSameReading(ratioBomb(5 * MiB), { maxRatio: Infinity });
  });

  it.skipIf(archives.length === 0)('reads every archive of the yauzl corpus the same', () => {
    for (const file of archives) expectSameReading(readFileSync(file));
    for (const file of archives) expectSameReading(readFileSync(file), { maxRatio: Infinity });
  });
});
