import type { Store } from '@galley/store';
import { uploadLost } from '../problems.js';
import type { ContentPins } from './content-pins.js';
import { releaseUnused } from './contents.js';

/** A blob is at most 256 MiB, counted while streaming (decisions §6). */
export const MAX_BLOB_BYTES = 256 * 1024 * 1024;

interface Holders {
  store: Store;
  pins: ContentPins;
}

/**
 * POST /blobs: an upload the byte store holds already, recorded as the account's blob (`created`:
 * first recorded now). Recorded where no release can delete the bytes: one may have since they
 * were stored, and then the upload is lost (503).
 */
export async function recordBlob(
  store: Store,
  input: { accountNumber: number; sha256: string; size: number },
): Promise<{ created: boolean }> {
  return store.transaction(async (tx) => {
    if ((await tx.content.keep([input.sha256])).length > 0) throw uploadLost();
    return tx.blobs.record(input);
  });
}

/**
 * The bytes of one multipart registration, put as they stream in. Unless the asset was
 * registered, `end` deletes them again (when nothing else uses or holds them).
 */
export class UploadedBytes {
  readonly #holders: Holders;
  #created: string | null = null;
  #registered = false;
  #release = () => {};

  constructor(holders: Holders) {
    this.#holders = holders;
  }

  async put(chunks: AsyncIterable<Uint8Array>) {
    const put = await this.#holders.store.bytes.put(chunks);
    if (put.ok && put.created) this.#created = put.sha256;
    return put;
  }

  /** Holds the bytes against deletion by others until `end` (see ContentPins). */
  hold(sha256: string): void {
    this.#release = this.#holders.pins.hold([sha256]);
  }

  registered(): void {
    this.#registered = true;
  }

  async end(): Promise<void> {
    this.#release();
    if (this.#created && !this.#registered) await releaseUnused(this.#holders, [this.#created]);
  }
}
