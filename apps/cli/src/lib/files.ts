import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { writeZip, zipDeflateLevel } from '@galley/core';
import type { Folder } from '@galley/core';
import { CommandFailure, InputError } from './exit.js';

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
    throw new CommandFailure('write_failed', `cannot write ${path}: ${writeReason(error)}`);
  }
}

/** Why a write failed, without the temporary file's name (it means nothing to the reader). */
function writeReason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const reasons: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is used up',
    EROFS: 'the file system is read-only',
    EISDIR: 'it is a folder',
    ENOENT: 'its folder does not exist',
  };
  if (typeof code === 'string') return `${reasons[code] ?? 'failed'} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * `-o <file>` judged before any work: a file name in a folder that exists, not an empty string,
 * not a folder (writing there would fail only at the end, naming internal temporary files).
 */
export async function checkOutputFile(path: string, option = '-o'): Promise<void> {
  if (path.trim() === '')
    throw new InputError('invalid_option', `${option} is empty; give the file to write`);
  if (path.endsWith('/') || path.endsWith(sep))
    throw new InputError('invalid_option', `${option} ${path} names a folder; give a file name`);
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory())
    throw new InputError(
      'invalid_option',
      `${option} ${path} is a folder; give a file name, e.g. ${join(path, 'folder.zip')}`,
    );
  const folder = dirname(path);
  const parent = await stat(folder).catch(() => undefined);
  if (!parent?.isDirectory())
    throw new InputError('missing', `${folder}: no such folder to write ${path} into`);
}

/** node:zlib at the level the core and the server use: the same folder gives the same bytes. */
const deflate = (data: Uint8Array): Uint8Array => deflateRawSync(data, { level: zipDeflateLevel });

/** The deterministic folder ZIP (decisions §4), the bytes the server exports for this folder. */
export function zipFolder(folder: Folder): Uint8Array {
  return writeZip(folder, { deflate });
}

/**
 * Makes the folder `path` and any missing folders above it, one level at a time from the nearest
 * one that exists. Node's own `mkdir(path, {recursive: true})` loops for ever where the system
 * refuses every new name without saying why (under /proc, say): here such a refusal is an error.
 */
export async function makeFolder(path: string): Promise<void> {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (found) {
      if (!found.isDirectory())
        throw Object.assign(new Error(`${at} is not a folder`), { code: 'ENOTDIR' });
      break;
    }
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const folder of missing.reverse()) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}
