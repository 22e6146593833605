import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { RepoScope } from '../scope.js';
import type { OwnWrite } from '../stamped-cache.js';
import { isoTime } from '../time.js';
import type { EventRecord, NewEvent } from './records.js';
import type { EventsTable } from './tables.js';
import { relaxedWrite } from '../relaxed.js';
import { enqueueDeliveries, webhooksFor, webhooksWanting } from './webhooks-repository.js';

/** The PostgreSQL channel that tells other processes an event was stored (payload: its number). */
export const EVENTS_CHANNEL = 'galley_events';

/**
 * Any fixed number: the advisory lock PostgreSQL writers of events take in turn, so numbers are
 * committed in the order they were given and a reader that saw N never later finds one below N.
 */
const EVENTS_LOCK = 7_402_317;

function toEvent(row: Selectable<EventsTable>): EventRecord {
  return {
    seq: row.seq,
    kind: row.kind,
    projectId: row.project_id,
    accountNumber: row.account_number,
    audience: row.audience === null ? null : (JSON.parse(row.audience) as number[]),
    at: row.at,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

/** A cache of reads that absorbs this process's own writes (see StampedCache.absorb). */
type Unmoved = { absorb(write: OwnWrite): void };

/** SQLite: the rows this connection has written so far (`total_changes()`). */
async function rowsWritten(tx: RepoScope): Promise<number> {
  const { rows } = await sql<{ n: number }>`select total_changes() as n`.execute(tx.db);
  return rows[0]!.n;
}

/** One statement inserting `events` in order, answering the number each was given. */
function insertEvents(scope: RepoScope, events: readonly NewEvent[], at: string) {
  return scope.db
    .insertInto('events')
    .values(
      events.map((event) => ({
        kind: event.kind,
        project_id: event.projectId,
        account_number: event.accountNumber,
        audience: event.audience ? JSON.stringify(event.audience) : null,
        at,
        data: JSON.stringify(event.data),
      })),
    )
    .returning('seq')
    .compile();
}

/**
 * The records of `events`, as `after` reads them back, from the numbers their one insert returned:
 * those come in no given order, but were given in the order of the rows (ascending, under the
 * write lock), so the nth smallest is the nth event's.
 */
function recordsOf(
  events: readonly NewEvent[],
  rows: ReadonlyArray<{ seq: number | string }>,
  at: string,
): EventRecord[] {
  const seqs = rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
  return events.map((event, i) => ({
    kind: event.kind,
    projectId: event.projectId,
    accountNumber: event.accountNumber,
    audience: event.audience ?? null,
    data: event.data,
    seq: seqs[i]!,
    at,
  }));
}

/** What happened to projects and assets, numbered in commit order, kept for a bounded time. */
export class EventsRepository {
  readonly #scope: RepoScope;
  readonly #unmoved: readonly Unmoved[];

  /** `unmoved`: remembered reads that no event changes, which absorb the events' writes. */
  constructor(scope: RepoScope, unmoved: readonly Unmoved[]) {
    this.#scope = scope;
    this.#unmoved = unmoved;
  }

  /**
   * Stores the event and a delivery for every webhook that asked for it, in one transaction; on
   * PostgreSQL, other processes are told (NOTIFY, sent at commit).
   */
  async append(event: NewEvent): Promise<EventRecord> {
    return (await this.appendAll([event])).records[0]!;
  }

  /**
   * `append` for several events at once, numbered in the order given, in one transaction: one
   * commit (one flush to disk) for the lot, however many there are. Events that are all
   * `relaxed` and that no webhook wants are, on SQLite, one statement committed without the
   * flush (relaxed.ts): a service answering thousands of operations a second spends neither its
   * thread nor the database's write lock on flushing what tells of unflushed changes. Answers the
   * records and how many deliveries were queued.
   */
  async appendAll(
    events: readonly NewEvent[],
  ): Promise<{ records: EventRecord[]; deliveries: number }> {
    if (events.length === 0) return { records: [], deliveries: 0 };
    const scope = this.#scope;
    const at = isoTime(scope.clock.now());
    const relaxed = events.every((event) => event.relaxed === true);
    const own = !scope.db.isTransaction && scope.kind === 'sqlite';
    let write: OwnWrite | undefined;
    let stored: { records: EventRecord[]; deliveries: number } | undefined;
    if (own && relaxed) {
      const hooks = await webhooksFor(scope, events);
      if (!events.some((event) => webhooksWanting(hooks, event).length > 0)) {
        const seqs = await relaxedWrite(scope, insertEvents(scope, events, at), (rowsWritten) => {
          write = { rowsWritten, rows: events.length };
        });
        stored = { records: recordsOf(events, seqs, at), deliveries: 0 };
      }
    }
    stored ??= await scope.transaction(async (tx) => {
      const postgres = tx.kind === 'postgres';
      if (postgres) {
        await sql`select pg_advisory_xact_lock(${EVENTS_LOCK})`.execute(tx.db);
        if (relaxed) await sql`set local synchronous_commit to off`.execute(tx.db);
      }
      const hooks = await webhooksFor(tx, events);
      const records = recordsOf(
        events,
        (await tx.db.executeQuery(insertEvents(tx, events, at))).rows,
        at,
      );
      const deliveries = await enqueueDeliveries(tx, records, hooks);
      if (postgres) {
        await sql`select pg_notify(${EVENTS_CHANNEL}, ${String(records.at(-1)!.seq)})`.execute(
          tx.db,
        );
      }
      if (own) write = { rowsWritten: await rowsWritten(tx), rows: records.length + deliveries };
      return { records, deliveries };
    });
    // Events change no access nor editing context: those reads stay remembered (a draft's
    // operations, each followed by its event, read their context once, not after every batch).
    if (write) for (const reads of this.#unmoved) reads.absorb(write);
    return stored;
  }

  /** Events numbered above `seq`, oldest first, at most `limit`. */
  async after(seq: number, limit: number): Promise<EventRecord[]> {
    const rows = await this.#scope.db
      .selectFrom('events')
      .selectAll()
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map(toEvent);
  }

  async find(seq: number): Promise<EventRecord | null> {
    const row = await this.#scope.db
      .selectFrom('events')
      .selectAll()
      .where('seq', '=', seq)
      .executeTakeFirst();
    return row ? toEvent(row) : null;
  }

  /** The oldest and newest numbers kept; zeros when there is none. */
  async bounds(): Promise<{ oldest: number; newest: number }> {
    const row = await this.#scope.db
      .selectFrom('events')
      .select((eb) => [eb.fn.min('seq').as('oldest'), eb.fn.max('seq').as('newest')])
      .executeTakeFirst();
    return { oldest: Number(row?.oldest ?? 0), newest: Number(row?.newest ?? 0) };
  }

  /** Forgets events stored before `before`, with their deliveries; answers how many went. */
  async prune(before: Date): Promise<number> {
    const cutoff = isoTime(before);
    return this.#scope.transaction(async (tx) => {
      const oldest = tx.db.selectFrom('events').select('seq').where('at', '<', cutoff);
      await tx.db.deleteFrom('webhook_deliveries').where('event_seq', 'in', oldest).execute();
      const gone = await tx.db.deleteFrom('events').where('at', '<', cutoff).executeTakeFirst();
      return Number(gone.numDeletedRows);
    });
  }
}
