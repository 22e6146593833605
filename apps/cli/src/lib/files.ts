import { randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readlink, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { CommandFailure, InputError, notEmpty } from './exit.js';

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
export function writeReason(error: unknown): string {
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

/** Links a path may lead through before it counts as a loop (the kernel's own limit). */
const maxLinks = 40;

/**
 * The file `-o <path>` is written to, judged before any work. A symbolic link is followed to
 * where it leads (a file, or a name not taken yet), so the write replaces that file and the link
 * stays. What the path ends at must be a regular file, or a free name in a folder that exists:
 * the write renames a temporary file over it, which would replace a folder, a device, a pipe or
 * a socket, so each of those is unusable input (exit 2), as is an empty path.
 */
export async function outputTarget(path: string, option = '-o'): Promise<string> {
  notEmpty(path, option, 'give the file to write');
  if (path.endsWith('/') || path.endsWith(sep))
    throw new InputError('invalid_option', `${option} ${path} names a folder; give a file name`);
  let target = path;
  for (let links = 0; ; links++) {
    const found = await lstat(target).catch((error: NodeJS.ErrnoException) => {
      // A name not taken yet, or one below a file: the folder check below says which.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw new InputError('unreadable', `${option} ${target}: ${writeReason(error)}`);
    });
    const named = target === path ? `${option} ${path}` : `${option} ${path} (a link to ${target})`;
    if (found === undefined) {
      const folder = dirname(target);
      const parent = await stat(folder).catch(() => undefined);
      if (!parent?.isDirectory())
        throw new InputError('missing', `${folder}: no such folder to write ${path} into`);
      return target;
    }
    if (found.isFile()) return target;
    if (found.isDirectory())
      throw new InputError(
        'invalid_option',
        `${named} is a folder; give a file name, e.g. ${join(path, 'folder.zip')}`,
      );
    if (!found.isSymbolicLink())
      throw new InputError(
        'not_a_file',
        `${named} is not a regular file (a device, pipe or socket); give a file name`,
      );
    if (links === maxLinks)
      throw new InputError(
        'symlink_loop',
        `${option} ${path} leads through more than ${maxLinks} symbolic links`,
      );
    target = resolve(dirname(target), await readlink(target));
  }
}

/**
 * The folders `makeFolder(path)` would make, outermost first (none when `path` is a folder),
 * found without making any; an error with code ENOTDIR when a file is in the way.
 */
export async function missingFolders(path: string): Promise<string[]> {
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
  return missing.reverse();
}

/**
 * Makes the folder `path` and any missing folders above it, one level at a time from the nearest
 * one that exists. Node's own `mkdir(path, {recursive: true})` loops for ever where the system
 * refuses every new name without saying why (under /proc, say): here such a refusal is an error.
 */
export async function makeFolder(path: string): Promise<void> {
  for (const folder of await missingFolders(path)) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}
