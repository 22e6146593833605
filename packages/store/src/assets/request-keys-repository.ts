import type { RepoScope } from '../scope.js';
import { addSeconds, isoTime } from '../time.js';

/** Request keys are remembered for 7 days (decisions §6). */
export const REQUEST_KEY_TTL_SECONDS = 7 * 86_400;
/** A request still `running` after this long died with its process: its key may be used again. */
export const REQUEST_KEY_STALE_SECONDS = 15 * 60;

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type RequestKeyRecord =
  | { state: 'running'; fingerprint: string }
  | { state: 'done'; fingerprint: string; answer: StoredAnswer };

export type RequestKeyClaim = { ok: true } | { ok: false; record: RequestKeyRecord };

/**
 * The idempotency record of writes: one row per (account, key). Claiming inserts it, so of
 * concurrent duplicates exactly one wins by the primary key (insert … on conflict do nothing,
 * never a check, then an insert).
 */
export class RequestKeysRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  async claim(input: {
    accountNumber: number;
    key: string;
    fingerprint: string;
  }): Promise<RequestKeyClaim> {
    for (let attempt = 0; ; attempt++) {
      const now = this.#scope.clock.now();
      const inserted = await this.#scope.db
        .insertInto('request_keys')
        .values({
          account_number: input.accountNumber,
          request_key: input.key,
          fingerprint: input.fingerprint,
          state: 'running',
          status: null,
          response: null,
          created_at: isoTime(now),
          expires_at: isoTime(addSeconds(now, REQUEST_KEY_TTL_SECONDS)),
        })
        .onConflict((oc) => oc.columns(['account_number', 'request_key']).doNothing())
        .executeTakeFirst();
      if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return { ok: true };
      const row = await this.#row(input.accountNumber, input.key);
      if (!row) continue; // removed in between: claim again
      const stale = isoTime(addSeconds(now, -REQUEST_KEY_STALE_SECONDS));
      const expired = row.expires_at <= isoTime(now);
      const abandoned = row.state === 'running' && row.created_at <= stale;
      if (attempt < 3 && (expired || abandoned)) {
        await this.#scope.db
          .deleteFrom('request_keys')
          .where('account_number', '=', input.accountNumber)
          .where('request_key', '=', input.key)
          .where('created_at', '=', row.created_at)
          .execute();
        continue;
      }
      return { ok: false, record: toRecord(row) };
    }
  }

  async find(accountNumber: number, key: string): Promise<RequestKeyRecord | null> {
    const row = await this.#row(accountNumber, key);
    return row && row.expires_at > isoTime(this.#scope.clock.now()) ? toRecord(row) : null;
  }

  /** Stores the first answer, to be replayed to every resend of the key. */
  async complete(input: { accountNumber: number; key: string; answer: StoredAnswer }) {
    await this.#scope.db
      .updateTable('request_keys')
      .set({
        state: 'done',
        status: input.answer.status,
        response: JSON.stringify({ headers: input.answer.headers, body: input.answer.body }),
      })
      .where('account_number', '=', input.accountNumber)
      .where('request_key', '=', input.key)
      .execute();
  }

  /** Forgets a running claim whose request failed without an answer worth replaying. */
  async abandon(accountNumber: number, key: string): Promise<void> {
    await this.#scope.db
      .deleteFrom('request_keys')
      .where('account_number', '=', accountNumber)
      .where('request_key', '=', key)
      .where('state', '=', 'running')
      .execute();
  }

  /** Removes keys older than their 7 days; answers how many. */
  async purgeExpired(): Promise<number> {
    const result = await this.#scope.db
      .deleteFrom('request_keys')
      .where('expires_at', '<=', isoTime(this.#scope.clock.now()))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  #row(accountNumber: number, key: string) {
    return this.#scope.db
      .selectFrom('request_keys')
      .selectAll()
      .where('account_number', '=', accountNumber)
      .where('request_key', '=', key)
      .executeTakeFirst();
  }
}

function toRecord(row: {
  fingerprint: string;
  state: string;
  status: number | null;
  response: string | null;
}): RequestKeyRecord {
  if (row.state !== 'done' || row.status === null || row.response === null)
    return { state: 'running', fingerprint: row.fingerprint };
  const { headers, body } = JSON.parse(row.response) as Omit<StoredAnswer, 'status'>;
  return {
    state: 'done',
    fingerprint: row.fingerprint,
    answer: { status: row.status, headers, body },
  };
}
