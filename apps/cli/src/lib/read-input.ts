import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { defaultZipLimits } from '@galley/core/folder';
import { InputError, notEmpty } from './exit.js';
import { storedZip, storedZipBytes, zipFolder } from './zip-folder.js';
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
  /**
   * The ZIP of a directory is only read back here, never sent (`check`): a small one is stored
   * without compression (see `storedZip`), and node:zlib is not even loaded.
   */
  readonly onlyToRead?: boolean;
}

/**
 * Reads a ZIP file or a directory; anything unusable is an InputError with one clear line. The
 * reads are synchronous: nothing else runs while a command reads its input, and asynchronously
 * each call is a round trip through Node's thread pool (four for each file fs/promises reads),
 * which a folder of small files pays hundreds of times over.
 */
export function readInput(path: string, options: Options = {}): Input {
  notEmpty(path, 'the path', 'give a ZIP or a directory');
  const limits = options.limits ?? defaultReadLimits;
  const found = fromDisk(path, () => statSync(path));
  if (found.isDirectory()) {
    const folder = readDirectory(path, limits, options.progress);
    options.progress?.phase(`zipping ${path}`);
    const total = [...folder.values()].reduce((sum, bytes) => sum + bytes.length, 0);
    const bytes =
      options.onlyToRead && total <= storedZipBytes ? storedZip(folder) : zipFolder(folder);
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
  const bytes = fromDisk(path, () => readFileSync(path));
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
function readDirectory(
  root: string,
  limits: ReadLimits = defaultReadLimits,
  progress?: Progress,
): Map<string, Uint8Array> {
  const rootReal = fromDisk(root, () => realpathSync(root));
  const files: Found[] = [];
  walk({ root, rootReal, files }, rootReal, '', new Set([rootReal]));
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length > limits.maxEntries || total > limits.maxTotalBytes)
    throw new InputError(
      'too_large',
      `${root} holds ${files.length} files and ${total} bytes; a project folder may hold at most ${limits.maxEntries} files and ${limits.maxTotalBytes} bytes`,
    );
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  progress?.phase(`reading ${root}`, files.length);
  const folder = new Map<string, Uint8Array>();
  for (const file of files) {
    const bytes = fromDisk(join(root, file.path), () => readFileSync(file.at));
    folder.set(file.path, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    progress?.advance();
  }
  return folder;
}

interface Walk {
  readonly root: string;
  readonly rootReal: string;
  readonly files: Found[];
}

function walk(w: Walk, dir: string, prefix: string, ancestors: Set<string>): void {
  const entries = fromDisk(join(w.root, prefix), () => readdirSync(dir, { withFileTypes: true }));
  for (const entry of entries) {
    const path = `${prefix}${entry.name}`;
    const shown = join(w.root, path);
    let at = join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      try {
        at = realpathSync(at);
      } catch {
        throw new InputError('unreadable', `${shown} is a symbolic link to nothing`);
      }
      if (at !== w.rootReal && !at.startsWith(`${w.rootReal}${sep}`))
        throw new InputError(
          'symlink_outside',
          `${shown} is a symbolic link leading outside the folder (to ${at}); copy the file in instead`,
        );
    }
    const kind = fromDisk(shown, () => statSync(at));
    if (kind.isDirectory()) {
      if (ancestors.has(at))
        throw new InputError('symlink_loop', `${shown} is a symbolic link to a folder above it`);
      walk(w, at, `${path}/`, new Set([...ancestors, at]));
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

/** `read()`, a failure of the file system as the InputError `fsError` makes of it. */
function fromDisk<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw fsError(error, path);
  }
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
