import { crc32 as coreCrc32, writeZip, zipDeflateLevel } from '@galley/core/folder';
import type { Folder, ZipCodec } from '@galley/core/folder';

/**
 * node:zlib, loaded when first needed: a small folder's `check` never needs it, and loading it
 * (with the stream modules it brings) is about 10 ms of a run that takes a few tens.
 */
const zlib = () => process.getBuiltinModule('node:zlib');

/** Below this, the core's CRC-32 is quicker than loading node:zlib for its native one. */
const nativeCrcBytes = 64 * 1024;
const crc32 = (data: Uint8Array): number =>
  data.length < nativeCrcBytes ? coreCrc32(data) : zlib().crc32(data);

/** node:zlib at the level the core and the server use: the same folder gives the same bytes. */
const deflate = (data: Uint8Array): Uint8Array =>
  zlib().deflateRawSync(data, { level: zipDeflateLevel });

/** The deterministic folder ZIP (decisions §4), the bytes the server exports for this folder. */
export function zipFolder(folder: Folder): Uint8Array {
  return writeZip(folder, { deflate, crc32 });
}

/** Folders up to this size may be zipped without compression when the ZIP is only read here. */
export const storedZipBytes = 1024 * 1024;

/**
 * A ZIP of `folder` with every file stored: writeZip stores what deflating does not shrink, and
 * this "deflate" never does. Only for a ZIP read back on this machine (a directory's `check`):
 * the service's reader judges it as it judges the deflated one but for the archive's own size,
 * which a folder of at most `storedZipBytes` cannot bring near its limit.
 */
export function storedZip(folder: Folder): Uint8Array {
  return writeZip(folder, { deflate: (data) => data, crc32 });
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
      const out = zlib().inflateRawSync(compressed, { maxOutputLength: size + 1 });
      // A plain Uint8Array of its own, as the core's reader gives: never a view into a pool.
      return out.byteOffset === 0 && out.buffer.byteLength === out.length
        ? new Uint8Array(out.buffer)
        : new Uint8Array(out);
    } catch {
      return undefined;
    }
  },
  crc32,
};
