import type { Kysely } from 'kysely';
import type { ByteStore } from './bytes/byte-store.js';
import type { Clock } from './clock.js';
import type { Database } from './database.js';
import type { ProjectAccess } from './projects/projects-repository.js';
import type { CachedToken } from './accounts/tokens-repository.js';
import type { EditingContext } from './projects/drafts-repository.js';
import type { StampedCache } from './stamped-cache.js';
import type { RelaxedExecutor } from './dialects.js';

export type StoreKind = 'sqlite' | 'postgres';

/**
 * What a repository is built on: the database (or the open transaction), the clock and the bytes.
 * Repositories are cheap objects: a transaction builds a fresh set bound to its connection.
 */
export interface RepoScope {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly bytes: ByteStore;
  /**
   * Valid API tokens by hash, shared by every scope of one store. Stamped by `data_version` only
   * (another connection committed): this process's own revocations call `forgetAll`, so its
   * other writes (draft events, last_used_at) leave the tokens remembered.
   */
  readonly tokenCache: StampedCache<CachedToken>;
  /**
   * The account's access to a project, by `projectId accountNumber`, shared likewise. Stamped by
   * `data_version` and `total_changes()`: any write at all, by anyone, forgets it.
   */
  readonly accessReads: StampedCache<ProjectAccess | null>;
  /**
   * What a page-editing request decides on, by page, account and client, shared likewise and
   * stamped like `accessReads`; a draft's own next event is absorbed (DraftsRepository.append),
   * so a chain of operations reads it once.
   */
  readonly editingReads: StampedCache<EditingContext | null>;
  /** SQLite: runs a write that commits without the flush to disk (relaxed.ts, dialects.ts). */
  readonly executeRelaxed: RelaxedExecutor | undefined;
  /**
   * Runs `fn` in one transaction; inside an open transaction it joins it (no nesting). On SQLite
   * the transaction takes the write lock at once (BEGIN IMMEDIATE), so writers queue instead of
   * failing; on PostgreSQL use `.forUpdate()` (guarded by `kind`) when a read decides a write.
   */
  transaction<T>(fn: (tx: RepoScope) => Promise<T>): Promise<T>;
}
