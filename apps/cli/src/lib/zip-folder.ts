import { deflateRawSync } from 'node:zlib';
import { writeZip, zipDeflateLevel } from '@galley/core/folder';
import type { Folder } from '@galley/core/folder';

/** node:zlib at the level the core and the server use: the same folder gives the same bytes. */
const deflate = (data: Uint8Array): Uint8Array => deflateRawSync(data, { level: zipDeflateLevel });

/** The deterministic folder ZIP (decisions §4), the bytes the server exports for this folder. */
export function zipFolder(folder: Folder): Uint8Array {
  return writeZip(folder, { deflate });
}
