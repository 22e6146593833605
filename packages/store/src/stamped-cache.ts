/**
 * Where the database stands, as numbers that move when it changes: SQLite's `data_version`
 * (another connection committed), with `total_changes()` (rows this connection wrote) for
 * reads that any write may affect (dialects.ts); PostgreSQL's change count and this process's
 * writes (fresh-reads.ts).
 */
export type Stamp = readonly number[];

/**
 * The store's two stamps, from which each domain builds its caches (see dialects.ts): `change`
 * moves when another connection commits, `write` also when this connection writes a row.
 * Either answers undefined where nothing may be remembered (an unopened connection; on
 * PostgreSQL, outside `Store.withFreshCaches`).
 */
export interface StoreStamps {
  readonly change: () => Stamp | undefined;
  readonly write: () => Stamp | undefined;
}

/** A write of `rows` rows by this process; `rowsWritten` is `total_changes()` right after it. */
export interface OwnWrite {
  rowsWritten: number;
  rows: number;
}

/** What a lookup saw: the stamp then, and this cache's own generation (see `forgetAll`). */
export interface Moment {
  stamp: Stamp;
  generation: number;
}

/** The remembered value (undefined: none), and the moment to quote when remembering one. */
export interface Lookup<V> {
  value: V | undefined;
  since: Moment | undefined;
}

/** Values remembered at most; beyond it the oldest is forgotten. */
const MAX_ENTRIES = 10_000;

/**
 * Reads remembered for as long as the stamp does not move, and until `forgetAll` (a change in
 * this process that the stamp does not show). Without a stamp (before the connection opens; on
 * PostgreSQL, where other servers write, outside a fresh check) nothing is remembered.
 *
 * A value read from the database is remembered only if nothing moved since the lookup that
 * missed it, so a read that raced a change is never kept. Reads inside a transaction must not
 * use this (they may see what the transaction has not committed).
 */
export class StampedCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #stamp: (() => Stamp | undefined) | undefined;
  #seen: Stamp | undefined;
  #generation = 0;

  constructor(stamp: (() => Stamp | undefined) | undefined) {
    this.#stamp = stamp;
  }

  lookup(key: string): Lookup<V> {
    const since = this.#now();
    return { value: since && this.#entries.get(key), since };
  }

  remember(key: string, value: V, since: Moment | undefined): void {
    const now = this.#now();
    if (!now || !since || now.generation !== since.generation) return;
    if (!sameStamp(now.stamp, since.stamp)) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, value);
  }

  /**
   * A write that this process just made on the one connection, and that `update` applies to
   * what is remembered. When this connection wrote nothing else since what is remembered was
   * last confirmed, it stays. Otherwise nothing changes here: the next lookup forgets
   * everything, as usual.
   * `data_version` need not be read again: a commit by another connection at any time since the
   * last lookup moves it, so the next lookup, which reads it, forgets everything then.
   */
  absorb(write: OwnWrite, update?: (entries: Map<string, V>) => void): void {
    const { rowsWritten, rows } = write;
    const seen = this.#seen;
    if (seen?.length !== 2 || rowsWritten !== seen[1]! + rows) return;
    update?.(this.#entries);
    this.#seen = [seen[0]!, rowsWritten];
  }

  forgetAll(): void {
    this.#entries.clear();
    this.#generation += 1;
  }

  /** The moment now; everything remembered is forgotten when the stamp moved. */
  #now(): Moment | undefined {
    const stamp = this.#stamp?.();
    if (stamp === undefined) return undefined;
    if (!this.#seen || !sameStamp(stamp, this.#seen)) {
      this.#seen = stamp;
      this.forgetAll();
    }
    return { stamp, generation: this.#generation };
  }
}

function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}
