import { randomSecret, sha256Hex } from '../ids.js';
import type { RepoScope } from '../scope.js';
import { addSeconds, isoTime } from '../time.js';
import type { Account } from './accounts-repository.js';
import { toAccount } from './accounts-repository.js';

const SESSION_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface NewSession {
  /** The secret for the cookie; only its hash is stored. */
  sessionId: string;
  csrfToken: string;
  expiresAt: string;
}

export type SessionCheck =
  | { ok: true; account: Account; sessionKey: string; csrfToken: string; expiresAt: string }
  | { ok: false; code: 'malformed' | 'unknown' | 'expired' };

/** Screen sessions: a random id in an HttpOnly cookie plus a CSRF token for writes. */
export class SessionsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  async create(input: { accountNumber: number; ttlSeconds: number }): Promise<NewSession> {
    const now = this.#scope.clock.now();
    const session: NewSession = {
      sessionId: randomSecret(32),
      csrfToken: randomSecret(32),
      expiresAt: isoTime(addSeconds(now, input.ttlSeconds)),
    };
    await this.#scope.db
      .insertInto('screen_sessions')
      .values({
        id_hash: sha256Hex(session.sessionId),
        account_number: input.accountNumber,
        csrf_token: session.csrfToken,
        created_at: isoTime(now),
        expires_at: session.expiresAt,
      })
      .execute();
    return session;
  }

  async authenticate(sessionId: string): Promise<SessionCheck> {
    if (!SESSION_PATTERN.test(sessionId)) return { ok: false, code: 'malformed' };
    const key = sha256Hex(sessionId);
    const row = await this.#scope.db
      .selectFrom('screen_sessions as s')
      .innerJoin('accounts as a', 'a.account_number', 's.account_number')
      .select([
        's.csrf_token',
        's.expires_at',
        'a.account_number',
        'a.email',
        'a.name',
        'a.created_at',
      ])
      .where('s.id_hash', '=', key)
      .executeTakeFirst();
    if (!row) return { ok: false, code: 'unknown' };
    if (new Date(row.expires_at) <= this.#scope.clock.now()) return { ok: false, code: 'expired' };
    return {
      ok: true,
      account: toAccount(row),
      sessionKey: key,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
    };
  }

  /** Ends a session, given the cookie's secret. */
  async delete(sessionId: string): Promise<void> {
    await this.deleteByKey(sha256Hex(sessionId));
  }

  /** Ends a session, given its stored key (`SessionCheck.sessionKey`). */
  async deleteByKey(sessionKey: string): Promise<void> {
    await this.#scope.db.deleteFrom('screen_sessions').where('id_hash', '=', sessionKey).execute();
  }

  /** Removes expired sessions; returns how many. */
  async purgeExpired(): Promise<number> {
    const result = await this.#scope.db
      .deleteFrom('screen_sessions')
      .where('expires_at', '<=', isoTime(this.#scope.clock.now()))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
