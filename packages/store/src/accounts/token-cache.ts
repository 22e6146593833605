import type { Account } from './accounts-repository.js';

/** A token that was found valid, as remembered between requests. */
export interface CachedToken {
  account: Account;
  tokenId: string;
  expiresAtMs: number;
  /** When last_used_at was last written, so that it is written at most once a minute. */
  lastUsedAtMs: number;
}

/** What a lookup saw: the entry, if any, and the moment to quote when remembering a new one. */
export interface TokenLookup {
  entry: CachedToken | undefined;
  moment: Moment | undefined;
}

interface Moment {
  stamp: number;
  generation: number;
}

/** Tokens remembered at most; beyond it the oldest is forgotten. */
const MAX_ENTRIES = 10_000;

/**
 * Valid tokens by their hash, so that a request does not pay a database read for its token.
 * Correct only while nothing changes the tokens behind its back, hence two rules: this process's
 * own revocations call `forgetAll`, and `changeStamp` changes whenever another connection commits
 * (SQLite's `data_version`), which also forgets everything. Without a stamp (PostgreSQL, where
 * other servers write) nothing is remembered at all. A token read from the database is
 * remembered only if nothing changed since the lookup that missed it, so a read that raced a
 * revocation is never kept.
 */
export class TokenCache {
  readonly #entries = new Map<string, CachedToken>();
  readonly #changeStamp: (() => number | undefined) | undefined;
  #stamp: number | undefined;
  #generation = 0;

  constructor(changeStamp: (() => number | undefined) | undefined) {
    this.#changeStamp = changeStamp;
  }

  lookup(tokenHash: string): TokenLookup {
    const moment = this.#now();
    return { entry: moment && this.#entries.get(tokenHash), moment };
  }

  remember(tokenHash: string, entry: CachedToken, since: Moment | undefined): void {
    const moment = this.#now();
    if (!moment || !since) return;
    if (moment.stamp !== since.stamp || moment.generation !== since.generation) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(tokenHash, entry);
  }

  forgetAll(): void {
    this.#entries.clear();
    this.#generation += 1;
  }

  #now(): Moment | undefined {
    const stamp = this.#changeStamp?.();
    if (stamp === undefined) return undefined;
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.forgetAll();
    }
    return { stamp, generation: this.#generation };
  }
}
