import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Stamp } from './stamped-cache.js';

/**
 * How long after its check a piece of work may still read from memory. A request is done well
 * within it; an answer that stays open (an event stream) reads the database again after it.
 */
const FRESH_FOR_MS = 1_000;

/**
 * Statements that change nothing a cache holds: reads, the rate-limit counters (written on almost
 * every request) and the MCP sessions (at every call); their tables count no changes either, see
 * migration 011.
 */
const CHANGES_NOTHING_CACHED =
  /^\s*(?:select\b|insert\s+into\s+"?rate_limits"?[\s(]|(?:insert\s+into|update|delete\s+from)\s+"?mcp_sessions"?[\s(])/i;

/**
 * The caches' stamp on PostgreSQL, where other processes write without telling: what SQLite's
 * `data_version` and `total_changes()` are there. Work that runs inside `run` may read from memory
 * what was read since the database's change count (migration 011) last moved; `run` reads that
 * count first, after the work began, so a change committed anywhere before it is seen. Calls that
 * arrive while a read of the count is under way share the next one: one round trip for all the
 * requests that came in meanwhile, not one each.
 *
 * Outside `run` (background work, an open answer past FRESH_FOR_MS, a failed check) the stamp is
 * undefined and nothing is remembered. This process's own writes move the stamp as soon as they
 * are done (`noteStatement`), as `total_changes()` does on SQLite.
 */
export class FreshReads {
  readonly #db: Kysely<Database>;
  /** Inside `run`: when its check ended (performance.now()). */
  readonly #checked = new AsyncLocalStorage<number>();
  #changes = 0;
  #ownWrites = 0;
  #checking: Promise<void> | null = null;
  #nextCheck: Promise<void> | null = null;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** The stamp for StampedCache: the change count and this process's writes, or undefined. */
  readonly stamp = (): Stamp | undefined => {
    const checkedAt = this.#checked.getStore();
    if (checkedAt === undefined || performance.now() - checkedAt > FRESH_FOR_MS) return undefined;
    return [this.#changes, this.#ownWrites];
  };

  /** Called after every statement this process ran (Kysely's log): its writes move the stamp. */
  noteStatement(text: string): void {
    if (!CHANGES_NOTHING_CACHED.test(text)) this.#ownWrites += 1;
  }

  /**
   * Runs `fn` once the change count has been read, with the caches usable inside it. When the
   * count cannot be read, `fn` runs all the same, reading the database itself.
   */
  async run<T>(fn: () => T | PromiseLike<T>): Promise<T> {
    try {
      await this.#check();
    } catch {
      return fn();
    }
    return this.#checked.run(performance.now(), fn);
  }

  /** A read of the count that starts after this call: the one under way started before it. */
  #check(): Promise<void> {
    if (this.#checking === null) {
      this.#checking = this.#readChanges().finally(() => {
        this.#checking = null;
      });
      return this.#checking;
    }
    this.#nextCheck ??= this.#checking
      .catch(() => undefined)
      .then(() => {
        this.#nextCheck = null;
        return this.#check();
      });
    return this.#nextCheck;
  }

  async #readChanges(): Promise<void> {
    const { rows } = await sql<{ changes: number }>`
      select sum(n)::bigint as changes from change_counts`.execute(this.#db);
    this.#changes = rows[0]!.changes;
  }
}

/**
 * Folds the counts of connections that have ended into one row (their sum, and so the stamp,
 * stays as it is), so the count's read stays short. Run as a store opens; two processes opening
 * at once may collide (a deadlock PostgreSQL breaks): the loser leaves it to the next opening.
 */
export async function compactChangeCounts(db: Kysely<Database>): Promise<void> {
  try {
    await sql`
      with ended as (
        delete from change_counts c
        where backend <> 0 and not exists (select from pg_stat_activity a where a.pid = c.backend)
        returning n)
      update change_counts set n = n + (select coalesce(sum(n), 0) from ended)
      where backend = 0`.execute(db);
  } catch {
    // Compacting is housekeeping: the counts are right either way.
  }
}
