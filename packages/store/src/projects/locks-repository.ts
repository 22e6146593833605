import { sql } from 'kysely';
import type { RepoScope } from '../scope.js';
import { addSeconds, isoTime } from '../time.js';

export type LockKind = 'agent' | 'screen';

export interface LockRecord {
  projectId: string;
  accountNumber: number;
  client: string;
  kind: LockKind;
  label: string;
  holderName: string;
  acquiredAt: string;
  expiresAt: string;
}

export interface LockHolder {
  accountNumber: number;
  client: string;
}

export type AcquireResult = { ok: true; lock: LockRecord } | { ok: false; held: LockRecord };
/** `released`: whether a lock in force was let go (false: there was none). */
export type ReleaseResult = { ok: true; released: boolean } | { ok: false; held: LockRecord };

/**
 * The editing lock of a project: one row per project, held by (account, client) until it
 * expires. Taking it is one conditional upsert, so of two racing clients exactly one wins on
 * SQLite and on PostgreSQL alike, without a read-then-write window.
 */
export class LocksRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /** Takes a free or expired lock, or renews the caller's own; else answers who holds it. */
  async acquire(input: {
    projectId: string;
    holder: LockHolder;
    kind: LockKind;
    label: string;
    ttlSeconds: number;
  }): Promise<AcquireResult> {
    for (;;) {
      const result = await this.#tryAcquire(input);
      // null: the other holder let go between the two statements; the next try takes it.
      if (result) return result;
    }
  }

  async #tryAcquire(input: {
    projectId: string;
    holder: LockHolder;
    kind: LockKind;
    label: string;
    ttlSeconds: number;
  }): Promise<AcquireResult | null> {
    const now = this.#scope.clock.now();
    const nowIso = isoTime(now);
    const { accountNumber, client } = input.holder;
    const sameHolder = sql<boolean>`project_locks.account_number = ${accountNumber} and project_locks.client = ${client}`;
    const taken = await this.#scope.db
      .insertInto('project_locks')
      .values({
        project_id: input.projectId,
        account_number: accountNumber,
        client,
        kind: input.kind,
        label: input.label,
        acquired_at: nowIso,
        expires_at: isoTime(addSeconds(now, input.ttlSeconds)),
      })
      .onConflict((oc) =>
        oc
          .column('project_id')
          .doUpdateSet((eb) => ({
            account_number: eb.ref('excluded.account_number'),
            client: eb.ref('excluded.client'),
            kind: eb.ref('excluded.kind'),
            label: eb.ref('excluded.label'),
            // A renewal keeps the time the lock was first taken.
            acquired_at: sql<string>`case when ${sameHolder} and project_locks.expires_at > ${nowIso} then project_locks.acquired_at else excluded.acquired_at end`,
            expires_at: eb.ref('excluded.expires_at'),
          }))
          .where((eb) => eb.or([eb('project_locks.expires_at', '<=', nowIso), sameHolder])),
      )
      .returning('project_id')
      .executeTakeFirst();
    const lock = await this.active(input.projectId);
    if (taken && lock) return { ok: true, lock };
    return lock ? { ok: false, held: lock } : null;
  }

  /** The lock in force (not expired), or null. */
  async active(projectId: string): Promise<LockRecord | null> {
    const row = await this.#scope.db
      .selectFrom('project_locks as l')
      .innerJoin('accounts as a', 'a.account_number', 'l.account_number')
      .select([
        'l.project_id',
        'l.account_number',
        'l.client',
        'l.kind',
        'l.label',
        'a.name',
        'l.acquired_at',
        'l.expires_at',
      ])
      .where('l.project_id', '=', projectId)
      .where('l.expires_at', '>', isoTime(this.#scope.clock.now()))
      .executeTakeFirst();
    if (!row) return null;
    return {
      projectId: row.project_id,
      accountNumber: row.account_number,
      client: row.client,
      kind: row.kind as LockKind,
      label: row.label,
      holderName: row.name,
      acquiredAt: row.acquired_at,
      expiresAt: row.expires_at,
    };
  }

  /** The projects whose lock in force `holder` holds. */
  async heldBy(holder: LockHolder): Promise<string[]> {
    const rows = await this.#scope.db
      .selectFrom('project_locks')
      .select('project_id')
      .where('account_number', '=', holder.accountNumber)
      .where('client', '=', holder.client)
      .where('expires_at', '>', isoTime(this.#scope.clock.now()))
      .execute();
    return rows.map((row) => row.project_id);
  }

  /** Releases the caller's lock; a lock in force held by anyone else is answered instead. */
  async release(projectId: string, holder: LockHolder): Promise<ReleaseResult> {
    const lock = await this.active(projectId);
    if (lock && !isHeldBy(lock, holder)) return { ok: false, held: lock };
    await this.#scope.db
      .deleteFrom('project_locks')
      .where('project_id', '=', projectId)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('account_number', '=', holder.accountNumber),
            eb('client', '=', holder.client),
          ]),
          eb('expires_at', '<=', isoTime(this.#scope.clock.now())),
        ]),
      )
      .execute();
    return { ok: true, released: lock !== null };
  }
}

export function isHeldBy(lock: LockRecord, holder: LockHolder | null): boolean {
  return (
    holder !== null && lock.accountNumber === holder.accountNumber && lock.client === holder.client
  );
}
