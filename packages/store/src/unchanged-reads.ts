/** Where the database stands: other connections' commits and this connection's own writes. */
export interface WriteStamp {
  /** SQLite `data_version`: moves when another connection (the CLI, a second server) commits. */
  dataVersion: number;
  /** SQLite `total_changes()`: rows this connection has inserted, updated or deleted. */
  changes: number;
}

/** What a lookup saw: the remembered value, if any, and the stamp to quote when remembering. */
export type UnchangedLookup<V> =
  { hit: true; value: V } | { hit: false; since: WriteStamp | undefined };

/** Values remembered at most; beyond it the oldest is forgotten. */
const MAX_ENTRIES = 10_000;

/**
 * Reads remembered for as long as the database has not changed at all: no commit by another
 * connection and no row written by this one, whatever the table. Coarse on purpose: nothing has
 * to know which write affects which read, so no write can be forgotten; any write simply starts
 * over. Without a stamp (PostgreSQL, where other servers write) nothing is remembered.
 *
 * A value read from the database is remembered only if the stamp did not move since the lookup
 * that missed it, so a read that raced a write is never kept. Reads inside a transaction must
 * not use this (they may see what the transaction has not committed).
 */
export class UnchangedReads<V> {
  readonly #entries = new Map<string, V>();
  readonly #stamp: (() => WriteStamp | undefined) | undefined;
  #seen: WriteStamp | undefined;

  constructor(stamp: (() => WriteStamp | undefined) | undefined) {
    this.#stamp = stamp;
  }

  lookup(key: string): UnchangedLookup<V> {
    const now = this.#current();
    if (now === undefined) return { hit: false, since: undefined };
    const value = this.#entries.get(key);
    return value === undefined ? { hit: false, since: now } : { hit: true, value };
  }

  remember(key: string, value: V, since: WriteStamp | undefined): void {
    const now = this.#current();
    if (!now || !since || !sameStamp(now, since)) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, value);
  }

  /** The stamp now; everything remembered is forgotten when it moved. */
  #current(): WriteStamp | undefined {
    const now = this.#stamp?.();
    if (now === undefined) return undefined;
    if (!this.#seen || !sameStamp(now, this.#seen)) {
      this.#entries.clear();
      this.#seen = now;
    }
    return now;
  }
}

function sameStamp(a: WriteStamp, b: WriteStamp): boolean {
  return a.dataVersion === b.dataVersion && a.changes === b.changes;
}
