import type { FileRecord, StoreScope } from '@galley/store';
import { WeightedLru } from '../../weighted-lru.js';

/** File records of this many files are kept in all (a few hundred bytes each). */
const MAX_FILES = 100_000;

/**
 * The files of recent revisions, by asset and number, so that a revision of a large production
 * does not read its base's thousands of rows again: the next revision is planned on the list the
 * last one was committed with. A committed revision's files never change (an erasure keeps its
 * rows, and a deleted asset's id is never given again), so nothing is invalidated, in this
 * process or across several; the least recently used lists leave first.
 */
export class RevisionFilesMemo {
  readonly #files = new WeightedLru<string, readonly FileRecord[]>(MAX_FILES);

  /** The files of `assetId@number`, by path; read from `scope` unless known. */
  async files(scope: StoreScope, assetId: string, number: number): Promise<readonly FileRecord[]> {
    const known = this.#files.get(refKey(assetId, number));
    if (known) return known;
    const files = await scope.assets.files(assetId, number);
    this.remember(assetId, number, files);
    return files;
  }

  /** Once revision `number` of `assetId` has committed with `files`. */
  remember(assetId: string, number: number, files: readonly FileRecord[]): void {
    this.#files.set(refKey(assetId, number), files, Math.max(1, files.length));
  }
}

const refKey = (assetId: string, number: number) => `${assetId}@${number}`;
