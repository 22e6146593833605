// The accounts domain as the Store exposes it: `store.accounts`, `store.tokens`, `store.sessions`.
import type { RepoScope } from '../scope.js';
import { StampedCache } from '../stamped-cache.js';
import type { StoreStamps } from '../stamped-cache.js';
import { AccountsRepository } from './accounts-repository.js';
import { SessionsRepository } from './sessions-repository.js';
import type { CachedToken } from './tokens-repository.js';
import { TokensRepository } from './tokens-repository.js';

/**
 * Built once per store, shared by every scope of it. `tokens`: valid API tokens by hash,
 * stamped by `data_version` only on SQLite (another connection committed): this process's own
 * revocations call `forgetAll`, so its other writes (draft events, last_used_at) leave the
 * tokens remembered. (On PostgreSQL both stamps are the same, own writes included.)
 */
export function accountCaches(stamps: StoreStamps) {
  return { tokens: new StampedCache<CachedToken>(stamps.change) };
}

export type AccountCaches = ReturnType<typeof accountCaches>;

export function accountRepositories(scope: RepoScope, caches: AccountCaches) {
  return {
    accounts: new AccountsRepository(scope),
    tokens: new TokensRepository(scope, caches.tokens),
    sessions: new SessionsRepository(scope),
  };
}

export type { Account, CreateAccountResult } from './accounts-repository.js';
export { FIRST_ACCOUNT_NUMBER, normalizeEmail } from './accounts-repository.js';
export type { TokenRecord, TokenCheck } from './tokens-repository.js';
export {
  TOKEN_PATTERN,
  DEFAULT_TOKEN_DAYS,
  MAX_TOKEN_DAYS,
  isWellFormedToken,
  tokenListing,
} from './tokens-repository.js';
export type { NewSession, SessionCheck } from './sessions-repository.js';
export { generatePassword } from './passwords.js';
