import { randomSecret } from '../ids.js';
import type { RepoScope } from '../scope.js';
import { addSeconds, isoTime } from '../time.js';

/** Request keys are remembered for 7 days (decisions §6). */
export const REQUEST_KEY_TTL_SECONDS = 7 * 86_400;
/**
 * A running claim lasts this long unless its request renews it; once it has ended, a resend of
 * the same request takes the claim over (the process running it died).
 */
export const REQUEST_KEY_LEASE_SECONDS = 30;
/** How often a running request renews its lease: two renewals may fail before it ends. */
export const REQUEST_KEY_RENEW_SECONDS = 10;
/**
 * A running row without a lease (written before leases, or by a process that predates them) is
 * taken over this long after it was created, as such processes themselves do.
 */
export const REQUEST_KEY_STALE_SECONDS = 15 * 60;

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A revision an answer shows in full: its files and inspection are the revision's own. */
export interface ShownRevision {
  assetId: string;
  number: number;
}

/**
 * `shows`: the revision whose files and inspection were left out of `answer` when it was stored
 * (see `complete`), for the caller to put back; null when `answer` is whole.
 */
export type RequestKeyRecord =
  | { state: 'running'; fingerprint: string }
  | { state: 'done'; fingerprint: string; answer: StoredAnswer; shows: ShownRevision | null };

/**
 * A won claim carries its `token`: only its holder may renew, complete or abandon it, so a
 * holder that lost its lease can never overwrite the answer of the request that took over.
 */
export type RequestKeyClaim = { ok: true; token: string } | { ok: false; record: RequestKeyRecord };

/** Names one claim of a key: the holder's token. */
export interface RequestKeyHold {
  accountNumber: number;
  key: string;
  token: string;
}

/**
 * The idempotency record of writes: one row per (account, key). Claiming inserts it, so of
 * concurrent duplicates exactly one wins by the primary key (insert … on conflict do nothing,
 * never a check, then an insert). A running claim holds a lease its request renews
 * (`REQUEST_KEY_LEASE_SECONDS`); a claim whose lease ended, or a key whose 7 days are over, is
 * taken over by one conditional update whose condition is the take-over rule itself, so of
 * concurrent resends exactly one wins there too (PostgreSQL re-checks the condition on the row
 * the winner wrote; SQLite runs writes one at a time).
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
    for (;;) {
      const now = this.#scope.clock.now();
      const token = randomSecret(18);
      const claimed = {
        fingerprint: input.fingerprint,
        state: 'running',
        status: null,
        response: null,
        created_at: isoTime(now),
        expires_at: isoTime(addSeconds(now, REQUEST_KEY_TTL_SECONDS)),
        lease_until: isoTime(addSeconds(now, REQUEST_KEY_LEASE_SECONDS)),
        claim_token: token,
        shown_asset_id: null,
        shown_revision: null,
      };
      const inserted = await this.#scope.db
        .insertInto('request_keys')
        .values({ account_number: input.accountNumber, request_key: input.key, ...claimed })
        .onConflict((oc) => oc.columns(['account_number', 'request_key']).doNothing())
        .executeTakeFirst();
      if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return { ok: true, token };
      const nowText = isoTime(now);
      const staleBefore = isoTime(addSeconds(now, -REQUEST_KEY_STALE_SECONDS));
      const takenOver = await this.#scope.db
        .updateTable('request_keys')
        .set(claimed)
        .where('account_number', '=', input.accountNumber)
        .where('request_key', '=', input.key)
        .where((eb) =>
          eb.or([
            // Its 7 days are over: the key is new again, whatever the request.
            eb('expires_at', '<=', nowText),
            // The same request, whose holder stopped renewing: it died without an answer.
            eb.and([
              eb('state', '=', 'running'),
              eb('fingerprint', '=', input.fingerprint),
              eb.or([
                eb('lease_until', '<=', nowText),
                eb.and([eb('lease_until', 'is', null), eb('created_at', '<=', staleBefore)]),
              ]),
            ]),
          ]),
        )
        .executeTakeFirst();
      if (takenOver.numUpdatedRows > 0n) return { ok: true, token };
      const row = await this.#row(input.accountNumber, input.key);
      if (!row) continue; // removed in between: claim again
      return { ok: false, record: toRecord(row) };
    }
  }

  /**
   * Extends the lease of a running claim; false when the claim is no longer this holder's (it
   * was taken over after its lease ended, or finished).
   */
  async renew(hold: RequestKeyHold): Promise<boolean> {
    const now = this.#scope.clock.now();
    const result = await this.#scope.db
      .updateTable('request_keys')
      .set({ lease_until: isoTime(addSeconds(now, REQUEST_KEY_LEASE_SECONDS)) })
      .where((eb) => eb.and(heldBy(hold)))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async find(accountNumber: number, key: string): Promise<RequestKeyRecord | null> {
    const row = await this.#row(accountNumber, key);
    return row && row.expires_at > isoTime(this.#scope.clock.now()) ? toRecord(row) : null;
  }

  /**
   * Stores the first answer, to be replayed to every resend of the key; false (nothing stored)
   * when the claim is no longer this holder's. `bodyJson`: the body as JSON text, when the caller
   * made it already to send it (a large answer is then serialized once). `shows`: the revision
   * whose files and inspection the caller left out of the body, as the revision keeps them (a
   * revision's answer then costs what changed, not a copy of every file); before that asset is
   * deleted for good, `showing` and `writeOut` make such answers whole again.
   */
  async complete(
    input: RequestKeyHold & { answer: StoredAnswer; bodyJson?: string; shows?: ShownRevision },
  ): Promise<boolean> {
    const result = await this.#scope.db
      .updateTable('request_keys')
      .set({
        state: 'done',
        status: input.answer.status,
        response: responseOf(input.answer, input.bodyJson),
        lease_until: null,
        shown_asset_id: input.shows?.assetId ?? null,
        shown_revision: input.shows?.number ?? null,
      })
      .where((eb) => eb.and(heldBy(input)))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The answers stored without the files and inspection of a revision of `assetId`. */
  async showing(
    assetId: string,
  ): Promise<Array<{ accountNumber: number; key: string; answer: StoredAnswer; number: number }>> {
    const rows = await this.#scope.db
      .selectFrom('request_keys')
      .select(['account_number', 'request_key', 'status', 'response', 'shown_revision'])
      .where('shown_asset_id', '=', assetId)
      .execute();
    return rows.map((row) => ({
      accountNumber: row.account_number,
      key: row.request_key,
      answer: answerOf(row.status!, row.response!),
      number: row.shown_revision!,
    }));
  }

  /** Stores the whole of an answer `showing` found, in place of the one without its revision's. */
  async writeOut(accountNumber: number, key: string, answer: StoredAnswer): Promise<void> {
    await this.#scope.db
      .updateTable('request_keys')
      .set({
        response: responseOf(answer),
        shown_asset_id: null,
        shown_revision: null,
      })
      .where('account_number', '=', accountNumber)
      .where('request_key', '=', key)
      .execute();
  }

  /** Forgets a running claim whose request failed without an answer worth replaying. */
  async abandon(hold: RequestKeyHold): Promise<void> {
    await this.#scope.db
      .deleteFrom('request_keys')
      .where((eb) => eb.and(heldBy(hold)))
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

/** The row of the running claim `hold` names. */
function heldBy(hold: RequestKeyHold) {
  return {
    account_number: hold.accountNumber,
    request_key: hold.key,
    state: 'running',
    claim_token: hold.token,
  };
}

/** The `response` column of an answer: its headers and body; `bodyJson`, the body made already. */
function responseOf({ headers, body }: StoredAnswer, bodyJson?: string): string {
  if (bodyJson === undefined || body === undefined) return JSON.stringify({ headers, body });
  return `{"headers":${JSON.stringify(headers)},"body":${bodyJson}}`;
}

/** An answer as `responseOf` stored it. */
function answerOf(status: number, response: string): StoredAnswer {
  const { headers, body } = JSON.parse(response) as Omit<StoredAnswer, 'status'>;
  return { status, headers, body };
}

function toRecord(row: {
  fingerprint: string;
  state: string;
  status: number | null;
  response: string | null;
  shown_asset_id: string | null;
  shown_revision: number | null;
}): RequestKeyRecord {
  if (row.state !== 'done' || row.status === null || row.response === null)
    return { state: 'running', fingerprint: row.fingerprint };
  const shows =
    row.shown_asset_id === null || row.shown_revision === null
      ? null
      : { assetId: row.shown_asset_id, number: row.shown_revision };
  return {
    state: 'done',
    fingerprint: row.fingerprint,
    answer: answerOf(row.status, row.response),
    shows,
  };
}
