import { sql } from 'kysely';
import type { RepoScope } from '../scope.js';
import { AssetsRepository } from './assets-repository.js';
import { BlobsRepository } from './blobs-repository.js';
import { VALUES_PER_LIST, chunks } from './records.js';

/** The revision a write is based on, with the contents of its files. */
export interface BaseRevision {
  assetId: string;
  number: number;
  sha256s: readonly string[];
}

/** Advisory lock keys `(CONTENT_LOCK_SPACE, bucket)` on PostgreSQL are content locks. */
const CONTENT_LOCK_SPACE = 0x67616c79; // "galy"
/** Contents released in one short transaction: it blocks writers of the same lock buckets. */
const RELEASE_BATCH = 100;

/**
 * A content's lock bucket: its first byte. 256 buckets bound the locks one transaction takes
 * (PostgreSQL's lock table is small), whatever the number of files; two contents sharing a
 * bucket only make a release wait for a writer it need not have waited for.
 */
const bucketOf = (sha256: string) => parseInt(sha256.slice(0, 2), 16);

/**
 * Bytes are shared by content: duplicates, copies and unchanged files of later revisions all
 * point at one stored file. It is deleted only when nothing uses it any more, decided under a
 * lock that writers also take: a writer `keep`s the contents it references inside its
 * transaction, and `release` deletes them after the transaction that dropped their last use.
 * On SQLite every transaction holds the write lock from its start (BEGIN IMMEDIATE), which is
 * that lock already; on PostgreSQL it is a transaction-scoped advisory lock per bucket, shared
 * by writers and exclusive for a release.
 */
export class ContentRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Inside a writer's transaction, before it references stored bytes: until the transaction
   * ends no release can delete them. Answers those already gone (a release came first).
   * `from`: a revision the written one is based on. While its content is not erased, the files
   * it has are in use, so no release deleted them: only the other contents are looked for on
   * disk (a revision of a 500-file production changing one file looked for 500).
   */
  async keep(sha256s: Iterable<string>, from?: BaseRevision): Promise<string[]> {
    if (!this.#scope.db.isTransaction) throw new Error('keep runs inside the writing transaction');
    const distinct = [...new Set(sha256s)];
    await this.#lock(distinct, 'shared');
    // Read under the lock: an erase that commits after this releases nothing the writer keeps.
    const inUse =
      from && (await new AssetsRepository(this.#scope).contentKept(from.assetId, from.number))
        ? new Set(from.sha256s)
        : undefined;
    const stored = await Promise.all(
      distinct.map(async (sha256) => inUse?.has(sha256) || (await this.#scope.bytes.has(sha256))),
    );
    return distinct.filter((_, i) => !stored[i]);
  }

  /**
   * Keeps contents for good (the editing interface's folder files and confirmed ZIPs: it never
   * lets bytes go): no release deletes them after this. Run it before the bytes are written or
   * found present: it waits for a release under way, so bytes that release deleted are then seen
   * missing and written again.
   */
  async keepForever(sha256s: Iterable<string>): Promise<void> {
    const distinct = [...new Set(sha256s)];
    if (distinct.length === 0) return;
    // One JSON parameter the database unpacks, not a VALUES row per content: Kysely builds those
    // node by node, and a folder's 1,200 contents held the event loop ~50 ms with its garbage.
    const list = JSON.stringify(distinct);
    await this.#scope.transaction(async (tx) => {
      await new ContentRepository(tx).#lock(distinct, 'shared');
      await (
        tx.kind === 'postgres'
          ? sql`insert into kept_contents (sha256)
              select value from jsonb_array_elements_text(${list}::jsonb) as listed(value)
              on conflict (sha256) do nothing`
          : // WHERE true: without it SQLite would read ON CONFLICT as a join's ON.
            sql`insert into kept_contents (sha256) select value from json_each(${list}) where true
              on conflict (sha256) do nothing`
      ).execute(tx.db);
    });
  }

  /**
   * Deletes the bytes of each content nothing uses any more; answers those deleted. Run it after
   * the transaction that dropped the last use has committed, never inside it: a write rolled
   * back must not have deleted bytes it still references. Each batch runs in a short
   * transaction of its own that takes the content lock and looks at the uses again, so a writer
   * that took the bytes up meanwhile keeps them.
   */
  async release(sha256s: Iterable<string>): Promise<string[]> {
    if (this.#scope.db.isTransaction) {
      throw new Error('release runs after the transaction that dropped the uses has committed');
    }
    const deleted: string[] = [];
    for (const batch of chunks([...new Set(sha256s)], RELEASE_BATCH)) {
      await this.#scope.transaction(async (tx) => {
        const content = new ContentRepository(tx);
        await content.#lock(batch, 'exclusive');
        const used = await content.#usedAmong(batch);
        for (const sha256 of batch) {
          if (!used.has(sha256) && (await tx.bytes.delete(sha256))) deleted.push(sha256);
        }
      });
    }
    return deleted;
  }

  /**
   * The contents a revision whose content is not erased, a live blob, or the editing interface
   * (`keepForever`) uses.
   */
  async #usedAmong(sha256s: readonly string[]): Promise<Set<string>> {
    const referenced = await new AssetsRepository(this.#scope).referencedAmong(sha256s);
    const held = await new BlobsRepository(this.#scope).heldAmong(sha256s);
    return new Set([...referenced, ...held, ...(await this.#keptAmong(sha256s))]);
  }

  async #keptAmong(sha256s: readonly string[]): Promise<string[]> {
    const kept: string[] = [];
    for (const part of chunks(sha256s, VALUES_PER_LIST)) {
      const rows = await this.#scope.db
        .selectFrom('kept_contents')
        .select('sha256')
        .where('sha256', 'in', part)
        .execute();
      kept.push(...rows.map((row) => row.sha256));
    }
    return kept;
  }

  /** Takes the content locks of `sha256s` until the transaction ends, in one order for all. */
  async #lock(sha256s: readonly string[], mode: 'shared' | 'exclusive'): Promise<void> {
    if (this.#scope.kind !== 'postgres' || sha256s.length === 0) return;
    const buckets = [...new Set(sha256s.map(bucketOf))].sort((a, b) => a - b);
    const take = sql.raw(
      mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock',
    );
    // unnest yields the buckets in their sorted order, so two transactions cannot deadlock.
    await sql`select ${take}(${CONTENT_LOCK_SPACE}::int, b) from unnest(${buckets}::int[]) as b`.execute(
      this.#scope.db,
    );
  }
}
