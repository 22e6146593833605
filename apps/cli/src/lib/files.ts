import { createHash, randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { writeZip, zipDeflateLevel } from '@galley/core';
import type { Folder } from '@galley/core';
import { CommandFailure } from './exit.js';

/** Lower-case hex SHA-256, as the service writes it (decisions §8). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Writes `bytes` to `path` through a temporary file beside it, flushed and then renamed, so the
 * path holds either its old content or the whole new file, never a part of it.
 */
export async function writeFileAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new CommandFailure('write_failed', `cannot write ${path}: ${reason}`);
  }
}

/** node:zlib at the level the core and the server use: the same folder gives the same bytes. */
const deflate = (data: Uint8Array): Uint8Array => deflateRawSync(data, { level: zipDeflateLevel });

/** The deterministic folder ZIP (decisions §4), the bytes the server exports for this folder. */
export function zipFolder(folder: Folder): Uint8Array {
  return writeZip(folder, { deflate });
}
