import type { RepoScope } from '../scope.js';
import { addSeconds, isoTime } from '../time.js';
import { VALUES_PER_LIST, chunks } from './records.js';

/** A blob may be used in writes for one day after its (last) upload (asset-api-v2, Limits). */
export const BLOB_LIFETIME_SECONDS = 86_400;

/**
 * Uploaded bytes an account may name in `{blob: sha256}` file specifications. The bytes live in
 * the byte store; a record here is the account's right to use them until it expires.
 */
export class BlobsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Notes an upload and (re)starts its lifetime. `created` is false when the account already
   * held these bytes as a live blob. It is the database's own answer (the row inserted, or an
   * expired one taken up again), so of concurrent uploads of the same bytes exactly one creates.
   */
  async record(input: {
    accountNumber: number;
    sha256: string;
    size: number;
    lifetimeSeconds?: number;
  }): Promise<{ created: boolean; expiresAt: string }> {
    const now = this.#scope.clock.now();
    const expiresAt = isoTime(addSeconds(now, input.lifetimeSeconds ?? BLOB_LIFETIME_SECONDS));
    const fresh = { size: input.size, created_at: isoTime(now), expires_at: expiresAt };
    // One transaction: the live row that refused the insert (locked by it on PostgreSQL) cannot
    // expire and be swept before its lifetime is restarted.
    return this.#scope.transaction(async ({ db }) => {
      const inserted = await db
        .insertInto('blobs')
        .values({ account_number: input.accountNumber, sha256: input.sha256, ...fresh })
        .onConflict((oc) =>
          oc
            .columns(['account_number', 'sha256'])
            .doUpdateSet(fresh)
            .where('blobs.expires_at', '<=', fresh.created_at),
        )
        .executeTakeFirst();
      if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return { created: true, expiresAt };
      await db
        .updateTable('blobs')
        .set({ expires_at: expiresAt })
        .where('account_number', '=', input.accountNumber)
        .where('sha256', '=', input.sha256)
        .execute();
      return { created: false, expiresAt };
    });
  }

  /** The account's blob if it has not expired. */
  async findLive(accountNumber: number, sha256: string): Promise<{ size: number } | null> {
    const row = await this.#scope.db
      .selectFrom('blobs')
      .select('size')
      .where('account_number', '=', accountNumber)
      .where('sha256', '=', sha256)
      .where('expires_at', '>', isoTime(this.#scope.clock.now()))
      .executeTakeFirst();
    return row ? { size: Number(row.size) } : null;
  }

  /** The contents among `sha256s` that some account holds as a live blob. */
  async heldAmong(sha256s: readonly string[]): Promise<Set<string>> {
    const held = new Set<string>();
    for (const part of chunks(sha256s, VALUES_PER_LIST)) {
      const rows = await this.#scope.db
        .selectFrom('blobs')
        .select('sha256')
        .distinct()
        .where('sha256', 'in', part)
        .where('expires_at', '>', isoTime(this.#scope.clock.now()))
        .execute();
      for (const row of rows) held.add(row.sha256);
    }
    return held;
  }

  /** Removes expired records; answers their contents (some may still be used elsewhere). */
  async expire(limit = 500): Promise<string[]> {
    const now = isoTime(this.#scope.clock.now());
    return this.#scope.transaction(async ({ db }) => {
      const rows = await db
        .selectFrom('blobs')
        .select(['account_number', 'sha256'])
        .where('expires_at', '<=', now)
        .limit(limit)
        .execute();
      for (const row of rows) {
        await db
          .deleteFrom('blobs')
          .where('account_number', '=', row.account_number)
          .where('sha256', '=', row.sha256)
          .where('expires_at', '<=', now)
          .execute();
      }
      return [...new Set(rows.map((r) => r.sha256))];
    });
  }

  /** Drops the account's records of these bytes (their content is being erased). */
  async drop(accountNumber: number, sha256s: readonly string[]): Promise<void> {
    if (sha256s.length === 0) return;
    await this.#scope.db
      .deleteFrom('blobs')
      .where('account_number', '=', accountNumber)
      .where('sha256', 'in', [...sha256s])
      .execute();
  }
}
