import type { BaseRevision, FileRecord, Store, StoreScope } from '@galley/store';
import type { Logger } from 'pino';
import { v2ProblemOf } from '../problems.js';
import type { ContentPins } from './content-pins.js';
import type { StagedFile } from './file-specs.js';
import { recheck } from './sources.js';
import type { Base, Sources } from './sources.js';

const PARALLEL_PUTS = 8;

interface Holders {
  store: Store;
  pins: ContentPins;
}

/**
 * The bytes a write brings (files its request carried), put in the byte store before the write's
 * transaction and held there (ContentPins) until it ends: a refused write then deletes only what
 * it added and nothing else uses, and never what a concurrent write of the same bytes commits.
 */
export class NewContents {
  readonly #holders: Holders;
  readonly #contents: ReadonlyArray<readonly [string, Uint8Array]>;
  readonly #created: string[] = [];
  readonly #release: () => void;

  private constructor(holders: Holders, fresh: readonly StagedFile[]) {
    this.#holders = holders;
    // Each distinct content once.
    this.#contents = [...new Map(fresh.map((f) => [f.sha256, f.bytes ?? new Uint8Array()]))];
    this.#release = holders.pins.hold(this.#contents.map(([sha256]) => sha256));
  }

  /** Puts the contents, several at once: each put is fsynced, and the disk batches them. */
  static async put(holders: Holders, fresh: readonly StagedFile[]): Promise<NewContents> {
    const contents = new NewContents(holders, fresh);
    let next = 0;
    const worker = async () => {
      while (next < contents.#contents.length) await contents.#put(contents.#contents[next++]![1]);
    };
    try {
      const workers = Math.min(PARALLEL_PUTS, contents.#contents.length);
      await Promise.all(Array.from({ length: workers }, worker));
    } catch (error) {
      await contents.discard();
      throw error;
    }
    return contents;
  }

  /**
   * In the write's transaction: keeps every content of the new revision (ContentRepository.keep:
   * no release deletes them before the commit). Bytes of the request's own that a release deleted
   * since they were put are put again; other contents gone answer what resolving the sources
   * again says (see `recheck`), else 410. `from`: the revision the change is based on (see `keep`).
   */
  async keep(
    tx: StoreScope,
    files: readonly FileRecord[],
    origin: { sources: Sources; base?: Base },
    from?: BaseRevision,
  ): Promise<void> {
    const missing = new Set(
      await tx.content.keep(
        files.map((f) => f.sha256),
        from,
      ),
    );
    for (const [sha256, bytes] of this.#contents)
      if (missing.delete(sha256)) await this.#put(bytes);
    if (missing.size === 0) return;
    await recheck(tx, origin);
    const file = files.find((f) => missing.has(f.sha256))!;
    throw v2ProblemOf('content_erased', { detail: `The content of ${file.path} is gone.` });
  }

  /** Once the write committed (its revision uses the bytes) or failed (see `discard`). */
  release(): void {
    this.#release();
  }

  /** After a refused or failed write: the bytes it added that nothing uses are deleted again. */
  async discard(): Promise<void> {
    this.#release();
    await releaseUnused(this.#holders, this.#created);
  }

  async #put(bytes: Uint8Array): Promise<void> {
    const stored = await this.#holders.store.bytes.put([bytes]);
    if (stored.ok && stored.created) this.#created.push(stored.sha256);
  }
}

/** Deletes bytes nothing uses any more (after a refused write or a failed upload). */
export async function releaseUnused(holders: Holders, sha256s: readonly string[]): Promise<void> {
  const free = sha256s.filter((sha256) => !holders.pins.held(sha256));
  if (free.length) await holders.store.content.release(free);
}

/**
 * After a write that dropped uses of bytes committed: deletes those nothing uses any more (after
 * the commit, so a write rolled back has deleted nothing). A failed deletion is logged, not
 * answered: the write stands and the bytes stay.
 */
export async function releaseDropped(
  deps: { store: Store; logger: Logger },
  dropped: readonly string[],
): Promise<void> {
  await deps.store.content.release(dropped).catch((error: unknown) => {
    deps.logger.error({ err: error }, 'deleting unused bytes failed');
  });
}
