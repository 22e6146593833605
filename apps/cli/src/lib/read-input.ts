import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { defaultZipLimits } from '@galley/core/folder';
import { InputError, notEmpty } from './exit.js';
import { zipFolder } from './zip-folder.js';
import type { Progress } from './progress.js';

/**
 * What a folder command was pointed at, always as the bytes of a ZIP: a ZIP file as it is, a
 * directory zipped deterministically (the bytes `galley push` uploads). So a directory goes
 * through the very reader the service applies to an upload (readZip: names, duplicates, limits,
 * escaped paths), and `check dir`, `check dir.zip` and the service give the same report.
 */
export interface Input {
  readonly kind: 'zip' | 'directory';
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** How much a directory may hold before it is refused unread: decisions §4, as for a ZIP. */
export interface ReadLimits {
  readonly maxArchiveBytes: number;
  readonly maxEntries: number;
  readonly maxTotalBytes: number;
}
const defaultReadLimits: ReadLimits = defaultZipLimits;

interface Options {
  readonly progress?: Progress;
  readonly limits?: ReadLimits;
}

/** Reads a ZIP file or a directory; anything unusable is an InputError with one clear line. */
export async function readInput(path: string, options: Options = {}): Promise<Input> {
  notEmpty(path, 'the path', 'give a ZIP or a directory');
  const limits = options.limits ?? defaultReadLimits;
  const found = await stat(path).catch((error: unknown) => {
    throw fsError(error, path);
  });
  if (found.isDirectory()) {
    const folder = await readDirectory(path, limits, options.progress);
    options.progress?.phase(`zipping ${path}`);
    const bytes = zipFolder(folder);
    if (bytes.length > limits.maxArchiveBytes)
      throw new InputError(
        'too_large',
        `${path} zipped is ${bytes.length} bytes; a folder ZIP may be at most ${limits.maxArchiveBytes}`,
      );
    return { kind: 'directory', path, bytes };
  }
  if (!found.isFile()) throw new InputError('not_a_file', `${path} is not a file or a directory`);
  if (found.size > limits.maxArchiveBytes)
    throw new InputError(
      'too_large',
      `${path} is ${found.size} bytes; a folder ZIP may be at most ${limits.maxArchiveBytes}`,
    );
  const bytes = await readFile(path).catch((error: unknown) => {
    throw fsError(error, path);
  });
  return { kind: 'zip', path, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) };
}

/** A file found while walking: its folder path (with `/`) and where to read it. */
interface Found {
  readonly path: string;
  readonly at: string;
  readonly size: number;
}

/**
 * Every file below `root` as folder path → bytes. Symbolic links are followed only while they
 * stay inside the folder (one leading out would read files the folder does not hold); special
 * files (pipes, sockets, devices) are refused. Counts and sizes are judged before any file is
 * read, so a huge tree is refused without filling memory.
 */
async function readDirectory(
  root: string,
  limits: ReadLimits = defaultReadLimits,
  progress?: Progress,
): Promise<Map<string, Uint8Array>> {
  const rootReal = await realpath(root).catch((error: unknown) => {
    throw fsError(error, root);
  });
  const files: Found[] = [];
  await walk({ root, rootReal, files }, rootReal, '', new Set([rootReal]));
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length > limits.maxEntries || total > limits.maxTotalBytes)
    throw new InputError(
      'too_large',
      `${root} holds ${files.length} files and ${total} bytes; a project folder may hold at most ${limits.maxEntries} files and ${limits.maxTotalBytes} bytes`,
    );
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  progress?.phase(`reading ${root}`, files.length);
  const contents = await mapLimited(files, 16, async (file) => {
    const bytes = await readFile(file.at).catch((error: unknown) => {
      throw fsError(error, join(root, file.path));
    });
    progress?.advance();
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  });
  return new Map(files.map((file, i) => [file.path, contents[i]!]));
}

interface Walk {
  readonly root: string;
  readonly rootReal: string;
  readonly files: Found[];
}

async function walk(w: Walk, dir: string, prefix: string, ancestors: Set<string>): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    throw fsError(error, join(w.root, prefix));
  });
  for (const entry of entries) {
    const path = `${prefix}${entry.name}`;
    const shown = join(w.root, path);
    let at = join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      at = await realpath(at).catch(() => {
        throw new InputError('unreadable', `${shown} is a symbolic link to nothing`);
      });
      if (at !== w.rootReal && !at.startsWith(`${w.rootReal}${sep}`))
        throw new InputError(
          'symlink_outside',
          `${shown} is a symbolic link leading outside the folder (to ${at}); copy the file in instead`,
        );
    }
    const kind = await stat(at).catch((error: unknown) => {
      throw fsError(error, shown);
    });
    if (kind.isDirectory()) {
      if (ancestors.has(at))
        throw new InputError('symlink_loop', `${shown} is a symbolic link to a folder above it`);
      await walk(w, at, `${path}/`, new Set([...ancestors, at]));
    } else if (kind.isFile()) {
      w.files.push({ path, at, size: kind.size });
    } else {
      throw new InputError(
        'not_a_file',
        `${shown} is not a regular file (a pipe, socket or device)`,
      );
    }
  }
}

/** `fn` over `items` with at most `limit` running at once, results in input order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A file system error as one line a person can act on. */
function fsError(error: unknown, path: string): InputError {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new InputError('missing', `${path}: no such file or directory`);
  if (code === 'EACCES' || code === 'EPERM')
    return new InputError('unreadable', `${path}: permission denied`);
  const reason = error instanceof Error ? error.message : String(error);
  return new InputError('unreadable', `${path} cannot be read: ${reason}`);
}
