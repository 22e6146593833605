import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, statSync, unlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { access, constants, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, ByteSource, ByteStore, PutResult } from './byte-store.js';
import { isSha256Hex } from './byte-store.js';

/** How long a temporary file must have been left untouched to count as abandoned. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** Large reads: serving a 50 MB file in 64 KiB chunks spent its time on per-chunk overhead. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes on disk under `root/<aa>/<sha256>`. Writes go to `root/tmp`, are fsynced, then renamed
 * into place (and the folder fsynced), so a crash leaves the old state or the whole new file.
 */
export class DiskByteStore implements ByteStore {
  readonly root: string;
  readonly #tmp: string;

  constructor(root: string) {
    this.root = root;
    this.#tmp = join(root, 'tmp');
  }

  /** Creates the folders and removes what writes cut off by a crash left behind. */
  async init(): Promise<void> {
    await mkdir(this.#tmp, { recursive: true });
    await this.#removeAbandoned();
  }

  /** Resolves when new bytes can be written here (the folder is there and not read-only). */
  async writable(): Promise<void> {
    await access(this.#tmp, constants.W_OK);
  }

  /**
   * A temporary file nothing has written to for an hour belongs to no live write: every write
   * touches it, and an HTTP request is timed out long before. Younger ones may be another
   * process's upload in progress (the CLI and a server share a data folder), so they stay.
   */
  async #removeAbandoned(): Promise<void> {
    const cutoff = Date.now() - ABANDONED_AFTER_MS;
    for (const name of await readdir(this.#tmp)) {
      if (!name.endsWith('.part')) continue;
      const path = join(this.#tmp, name);
      const modified = await stat(path).then(
        (found) => found.mtimeMs,
        () => Number.POSITIVE_INFINITY, // gone meanwhile: its write finished
      );
      if (modified < cutoff) await rm(path, { force: true });
    }
  }

  pathOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new TypeError('not a lower-case SHA-256 hex digest');
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  async put(source: ByteSource, options: { maxBytes?: number } = {}): Promise<PutResult> {
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const tmpPath = join(this.#tmp, `${randomBytes(12).toString('hex')}.part`);
    const file = await open(tmpPath, 'wx');
    const hash = createHash('sha256');
    let size = 0;
    let kept = false;
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        if (size > limit) return { ok: false, code: 'too_large', limit };
        hash.update(chunk);
        await writeAll(file, chunk);
      }
      await file.sync();
      await file.close();
      const sha256 = hash.digest('hex');
      const finalPath = this.pathOf(sha256);
      if (await exists(finalPath)) return { ok: true, sha256, size, created: false };
      await mkdir(join(this.root, sha256.slice(0, 2)), { recursive: true });
      await rename(tmpPath, finalPath);
      kept = true;
      await syncDir(join(this.root, sha256.slice(0, 2)));
      return { ok: true, sha256, size, created: true };
    } finally {
      await file.close().catch(() => undefined);
      if (!kept) await rm(tmpPath, { force: true });
    }
  }

  // `has` and `delete` run inside transactions (ContentRepository) and do not yield to the event
  // loop: a SQLite transaction that yields while it holds the write lock makes another connection
  // of the same process (two stores, as in tests) wait out busy_timeout blocking that very loop.
  has(sha256: string): Promise<boolean> {
    const stored = isSha256Hex(sha256) && statSync(this.pathOf(sha256), { throwIfNoEntry: false });
    return Promise.resolve(stored !== false && stored !== undefined);
  }

  async size(sha256: string): Promise<number | null> {
    if (!isSha256Hex(sha256)) return null;
    try {
      return (await stat(this.pathOf(sha256))).size;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(sha256: string, range?: ByteRange): Promise<Readable | null> {
    if (!isSha256Hex(sha256)) return null;
    const path = this.pathOf(sha256);
    // Opening first turns "absent" into null instead of a stream that errors later.
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return createReadStream(path, {
      fd: handle,
      autoClose: true,
      highWaterMark: READ_CHUNK_BYTES,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  delete(sha256: string): Promise<boolean> {
    if (!isSha256Hex(sha256)) return Promise.resolve(false);
    try {
      unlinkSync(this.pathOf(sha256));
      return Promise.resolve(true);
    } catch (error) {
      if (isNotFound(error)) return Promise.resolve(false);
      throw error;
    }
  }
}

async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

async function syncDir(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}
