import type { RepoScope } from '../scope.js';
import { AssetsRepository } from './assets-repository.js';
import { BlobsRepository } from './blobs-repository.js';

/**
 * Bytes are shared by content: duplicates, copies and unchanged files of later revisions all
 * point at one stored file. It is deleted only when nothing uses it any more.
 */
export class ContentRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /** True when a revision whose content is not erased, or a live blob, uses these bytes. */
  async inUse(sha256: string): Promise<boolean> {
    return (
      (await new AssetsRepository(this.#scope).isReferenced(sha256)) ||
      (await new BlobsRepository(this.#scope).isHeld(sha256))
    );
  }

  /**
   * Deletes the bytes of each content nothing uses any more; answers those deleted. Run it in
   * the transaction that dropped the last use, so no writer can take up the bytes in between.
   */
  async release(sha256s: Iterable<string>): Promise<string[]> {
    const deleted: string[] = [];
    for (const sha256 of new Set(sha256s)) {
      if (await this.inUse(sha256)) continue;
      if (await this.#scope.bytes.delete(sha256)) deleted.push(sha256);
    }
    return deleted;
  }
}
