import { randomBytes } from 'node:crypto';
import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** Reads of a staged file for sending: large, as the bytes go out in 8 MiB parts or one body. */
const READ_CHUNK_BYTES = 1024 * 1024;

/** An upload's bytes in a local file, hashed on the way in, to be sent under their hash. */
export interface Staged {
  readonly sha256: string;
  readonly size: number;
  /** A new stream of all the bytes from the start (one per attempt to send them). */
  stream(): Readable;
  /** Closes the file (and removes its name when it still has one). */
  discard(): Promise<void>;
}

/** What an upload has already read and hashed when it turns to staging (its first part). */
export interface StagingStart {
  first: readonly Uint8Array[];
  size: number;
  rest: AsyncIterator<Uint8Array>;
  hash: Hash;
  limit: number;
}

/**
 * A local folder where uploads to object storage wait, whole and hashed, until they are sent under
 * their hash. A staged file loses its name as soon as it is opened: it lives on through its open
 * handle only, so a process that dies, even by SIGKILL, leaves nothing behind (the system frees
 * it). Where a name cannot be removed while open (some Windows file systems), it is removed when
 * the upload ends, and `init` removes what a crash left. Removing a name never harms an upload in
 * progress (another process sharing the folder): its bytes are read through its handle.
 */
export class StagingFolder {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Makes the folder and removes every name in it: no upload in progress needs one. */
  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    for (const name of await readdir(this.dir)) {
      await rm(join(this.dir, name), { force: true, recursive: true });
    }
  }

  /**
   * Writes `start.first` and then the rest of the source to a new staged file while hashing it,
   * or answers 'too_large' (keeping nothing) as soon as it passes `start.limit`. A failing source
   * rejects, keeping nothing.
   */
  async stage(start: StagingStart): Promise<Staged | 'too_large'> {
    const path = join(this.dir, `${randomBytes(12).toString('hex')}.part`);
    const file = await open(path, 'wx+');
    const named = await unlink(path).then(
      () => false,
      () => true,
    );
    const discard = async () => {
      await file.close().catch(() => undefined);
      if (named) await rm(path, { force: true });
    };
    const { rest, hash, limit } = start;
    let size = 0;
    // One write in flight while the next chunk is read and hashed.
    let writing: Promise<void> = Promise.resolve();
    const append = async (chunk: Uint8Array) => {
      await writing;
      writing = writeAt(file, chunk, size);
      size += chunk.byteLength;
    };
    let staged = false;
    try {
      for (const chunk of start.first) await append(chunk);
      for (;;) {
        const next = await rest.next();
        if (next.done) break;
        if (size + next.value.byteLength > limit) {
          await rest.return?.();
          return 'too_large';
        }
        hash.update(next.value);
        await append(next.value);
      }
      await writing;
      staged = true;
    } finally {
      if (!staged) {
        await writing.catch(() => undefined);
        await discard();
      }
    }
    return {
      sha256: hash.digest('hex'),
      size,
      stream: () =>
        file.createReadStream({ start: 0, autoClose: false, highWaterMark: READ_CHUNK_BYTES }),
      discard,
    };
  }
}

async function writeAt(file: FileHandle, chunk: Uint8Array, position: number): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await file.write(
      chunk,
      offset,
      chunk.byteLength - offset,
      position + offset,
    );
    offset += bytesWritten;
  }
}
