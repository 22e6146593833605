import type { Kysely } from 'kysely';
import type { ByteStore } from './bytes/byte-store.js';
import type { Clock } from './clock.js';
import type { Database } from './database.js';
import type { RelaxedExecutor } from './dialects.js';

export type StoreKind = 'sqlite' | 'postgres';

/**
 * What a repository is built on: the database (or the open transaction), the clock and the bytes.
 * Repositories are cheap objects: a transaction builds a fresh set bound to its connection.
 * What a domain remembers between requests is its own: it builds its caches once per store
 * (from `StoreStamps`) and hands them to its repositories. Every repository imports this file,
 * so it names no domain's records.
 */
export interface RepoScope {
  readonly kind: StoreKind;
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly bytes: ByteStore;
  /** SQLite: runs a write that commits without the flush to disk (relaxed.ts, dialects.ts). */
  readonly executeRelaxed: RelaxedExecutor | undefined;
  /**
   * Runs `fn` in one transaction; inside an open transaction it joins it (no nesting). On SQLite
   * the transaction takes the write lock at once (BEGIN IMMEDIATE), so writers queue instead of
   * failing; on PostgreSQL use `.forUpdate()` (guarded by `kind`) when a read decides a write.
   */
  transaction<T>(fn: (tx: RepoScope) => Promise<T>): Promise<T>;
}
