import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { writeZip, zipDeflateLevel } from '@galley/core/folder';
import type { Folder, ZipCodec } from '@galley/core/folder';

/** node:zlib at the level the core and the server use: the same folder gives the same bytes. */
const deflate = (data: Uint8Array): Uint8Array => deflateRawSync(data, { level: zipDeflateLevel });

/** The deterministic folder ZIP (decisions §4), the bytes the server exports for this folder. */
export function zipFolder(folder: Folder): Uint8Array {
  return writeZip(folder, { deflate, crc32 });
}

/**
 * Reading a ZIP with node:zlib's inflate and CRC-32: native code, several times faster than the
 * core's JavaScript on a cold start. An entry it cannot inflate to its declared size is left to
 * the core, which reads it again and says what is wrong, so reports are the same either way.
 */
export const nodeZipCodec: ZipCodec = {
  inflateRaw(compressed, size) {
    try {
      // One byte more than declared may come out: a longer stream is then seen as a lie.
      const out = inflateRawSync(compressed, { maxOutputLength: size + 1 });
      // A plain Uint8Array of its own, as the core's reader gives: never a view into a pool.
      return out.byteOffset === 0 && out.buffer.byteLength === out.length
        ? new Uint8Array(out.buffer)
        : new Uint8Array(out);
    } catch {
      return undefined;
    }
  },
  crc32: (data) => crc32(data),
};
