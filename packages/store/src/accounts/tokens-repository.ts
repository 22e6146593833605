import { newId, randomSecret, sha256Hex } from '../ids.js';
import type { RepoScope } from '../scope.js';
import type { StampedCache } from '../stamped-cache.js';
import { addSeconds, isoTime } from '../time.js';
import type { Account } from './accounts-repository.js';
import { toAccount } from './accounts-repository.js';

/** `glly_` + 43 base64url characters (32 random bytes). */
export const TOKEN_PATTERN = /^glly_[A-Za-z0-9_-]{43}$/;
export const DEFAULT_TOKEN_DAYS = 90;
/** The longest validity a token may be issued with (decisions §2: tokens are valid 90 days). */
export const MAX_TOKEN_DAYS = 90;
/** Characters of the token kept in clear for listings: `glly_` and 8 more. */
const PREFIX_LENGTH = 13;
/** last_used_at is written at most this often per token, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A token that was found valid, as remembered between requests (the store's token cache). */
export interface CachedToken {
  account: Account;
  tokenId: string;
  expiresAtMs: number;
  /** When last_used_at was last written, so that it is written at most once a minute. */
  lastUsedAtMs: number;
}

export interface TokenRecord {
  id: string;
  accountNumber: number;
  prefix: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A token as the service and the CLI list it: snake_case fields, never the token itself. */
export function tokenListing(record: TokenRecord) {
  return {
    id: record.id,
    prefix: record.prefix,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    last_used_at: record.lastUsedAt,
    revoked_at: record.revokedAt,
  };
}

export type TokenCheck =
  | { ok: true; account: Account; tokenId: string }
  | { ok: false; code: 'malformed' | 'unknown' | 'expired' | 'revoked' };

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export class TokensRepository {
  readonly #scope: RepoScope;
  readonly #cache: StampedCache<CachedToken>;

  /** `cache`: the store's valid tokens by hash (see `accountCaches`). */
  constructor(scope: RepoScope, cache: StampedCache<CachedToken>) {
    this.#scope = scope;
    this.#cache = cache;
  }

  /**
   * Issues a token valid for `days` (1 to MAX_TOKEN_DAYS, DEFAULT_TOKEN_DAYS when absent); the
   * clear token is returned here once and never stored. Callers validate `days` first: a value
   * outside the range is a programming error here.
   */
  async issue(input: {
    accountNumber: number;
    days?: number;
  }): Promise<{ token: string; record: TokenRecord }> {
    const days = input.days ?? DEFAULT_TOKEN_DAYS;
    if (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS)
      throw new RangeError(`a token is valid for 1 to ${MAX_TOKEN_DAYS} days, not ${days}`);
    const token = `glly_${randomSecret(32)}`;
    const now = this.#scope.clock.now();
    const record: TokenRecord = {
      id: newId('tok'),
      accountNumber: input.accountNumber,
      prefix: token.slice(0, PREFIX_LENGTH),
      createdAt: isoTime(now),
      expiresAt: isoTime(addSeconds(now, days * 86_400)),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.#scope.db
      .insertInto('api_tokens')
      .values({
        id: record.id,
        account_number: record.accountNumber,
        token_hash: sha256Hex(token),
        prefix: record.prefix,
        created_at: record.createdAt,
        expires_at: record.expiresAt,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    return { token, record };
  }

  /**
   * Resolves a presented token to its account and notes its use (at most once a minute). Valid
   * tokens are remembered in the store's token cache, so most calls read no row.
   */
  async authenticate(token: string): Promise<TokenCheck> {
    if (!isWellFormedToken(token)) return { ok: false, code: 'malformed' };
    const { db, clock } = this.#scope;
    const tokenCache = this.#cache;
    const tokenHash = sha256Hex(token);
    const now = clock.now().getTime();
    const { value: cached, since } = tokenCache.lookup(tokenHash);
    const entry = cached ?? (await this.#read(tokenHash));
    if (typeof entry === 'string') return { ok: false, code: entry };
    if (entry.expiresAtMs <= now) return { ok: false, code: 'expired' };
    if (!cached) tokenCache.remember(tokenHash, entry, since);
    if (now - entry.lastUsedAtMs >= LAST_USED_RESOLUTION_MS) {
      entry.lastUsedAtMs = now;
      await db
        .updateTable('api_tokens')
        .set({ last_used_at: isoTime(new Date(now)) })
        .where('id', '=', entry.tokenId)
        .execute();
    }
    return { ok: true, account: entry.account, tokenId: entry.tokenId };
  }

  async #read(tokenHash: string): Promise<CachedToken | 'unknown' | 'revoked'> {
    const row = await this.#scope.db
      .selectFrom('api_tokens as t')
      .innerJoin('accounts as a', 'a.account_number', 't.account_number')
      .select([
        't.id',
        't.expires_at',
        't.revoked_at',
        't.last_used_at',
        'a.account_number',
        'a.email',
        'a.name',
        'a.created_at',
      ])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return 'unknown';
    if (row.revoked_at !== null) return 'revoked';
    return {
      account: toAccount(row),
      tokenId: row.id,
      expiresAtMs: new Date(row.expires_at).getTime(),
      lastUsedAtMs: row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime(),
    };
  }

  /** The account's tokens, newest first, revoked ones included. */
  async list(accountNumber: number): Promise<TokenRecord[]> {
    const rows = await this.#scope.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('account_number', '=', accountNumber)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      accountNumber: row.account_number,
      prefix: row.prefix,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    }));
  }

  /**
   * Revokes one of the account's tokens, named by its id or its listed prefix.
   * False when the account has no such token that is not already revoked.
   */
  async revoke(input: { accountNumber: number; idOrPrefix: string }): Promise<boolean> {
    const column = input.idOrPrefix.startsWith('glly_') ? 'prefix' : 'id';
    const result = await this.#scope.db
      .updateTable('api_tokens')
      .set({ revoked_at: isoTime(this.#scope.clock.now()) })
      .where('account_number', '=', input.accountNumber)
      .where(column, '=', input.idOrPrefix)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.#cache.forgetAll();
    return result.numUpdatedRows > 0n;
  }
}
