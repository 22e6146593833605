import { sql } from 'kysely';
import { isForeignKeyViolation, isUniqueViolation } from '../errors.js';
import type { RepoScope } from '../scope.js';
import { draftLogOf } from './draft-events.js';
import type { DraftLogRecord } from './draft-events.js';
import type { DraftRecord } from './draft-records.js';
import { relaxedWrite } from '../relaxed.js';

/** A draft's page as its events had made it after event `seq`, with `applied` operations in effect. */
export interface DraftSnapshot {
  seq: number;
  applied: number;
  html: string;
}

/**
 * What a draft is rebuilt from: a stored page (a snapshot, or null for the draft's base) and
 * what the events after it amount to (`operations` and `applied` count from the snapshot's).
 */
export interface DraftRestore extends DraftLogRecord {
  snapshot: DraftSnapshot | null;
}

/** Snapshots kept per draft: the newest, and one before it for an undo that goes past it. */
const KEPT = 2;

type DraftPoint = Pick<DraftRecord, 'id' | 'baseSequence' | 'sequence'>;

/**
 * Snapshots of open drafts, so rebuilding one costs its page and the events since its newest
 * snapshot, not every event since it was opened (or last saved). A snapshot is taken where the
 * draft has nothing to redo, so the events after it never need an operation from before it
 * unless they undo below it; such a snapshot is passed over for an older one, or the base.
 */
export class DraftSnapshotsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * The newest usable snapshot of `draft` as read (none after its `sequence`) and the events
   * after it; with `below`, only a snapshot with fewer than `below` operations in effect (to
   * undo past the one a draft was rebuilt from). Without one, the base and every event.
   */
  async restore(draft: DraftPoint, options: { below?: number } = {}): Promise<DraftRestore> {
    const { db } = this.#scope;
    const below = options.below === undefined ? sql`` : sql`and applied < ${options.below}`;
    const { rows: candidates } = await sql<{ seq: number; applied: number }>`
      select seq, applied from draft_snapshots
      where draft_id = ${draft.id} and seq > ${draft.baseSequence} and seq <= ${draft.sequence}
        ${below}
      order by seq desc`.execute(db);
    for (const candidate of candidates) {
      const log = draftLogOf(await this.#events(draft, candidate.seq));
      if (log.underflow) continue; // undone below the snapshot: it is not on the draft's line
      const { rows } = await sql<{ html: string }>`select html from draft_snapshots
        where draft_id = ${draft.id} and seq = ${candidate.seq}`.execute(db);
      if (!rows[0]) continue; // dropped meanwhile by a newer one
      const { operations, applied } = log;
      return { snapshot: { ...candidate, html: rows[0].html }, operations, applied };
    }
    const { operations, applied } = draftLogOf(await this.#events(draft, draft.baseSequence));
    return { snapshot: null, operations, applied };
  }

  /**
   * Keeps `snapshot` of the draft and drops all but the newest KEPT. Written as the log is (each
   * statement atomic, not waiting for the flush): a snapshot lost to a power cut only makes the
   * next rebuild replay more. Nothing is kept for a draft that is gone.
   */
  async keep(draftId: string, snapshot: DraftSnapshot): Promise<void> {
    const { db } = this.#scope;
    try {
      await relaxedWrite(
        this.#scope,
        sql`insert into draft_snapshots (draft_id, seq, applied, html)
          values (${draftId}, ${snapshot.seq}, ${snapshot.applied}, ${snapshot.html})`.compile(db),
      );
    } catch (error) {
      if (isUniqueViolation(error) || isForeignKeyViolation(error)) return;
      throw error;
    }
    await relaxedWrite(
      this.#scope,
      sql`delete from draft_snapshots where draft_id = ${draftId} and seq not in
        (select seq from draft_snapshots where draft_id = ${draftId}
          order by seq desc limit ${KEPT})`.compile(db),
    );
  }

  async #events(draft: DraftPoint, after: number) {
    const { rows } = await sql<{ kind: string; operation: string | null }>`
      select kind, operation from draft_events
      where draft_id = ${draft.id} and seq > ${after} and seq <= ${draft.sequence}
      order by seq`.execute(this.#scope.db);
    return rows;
  }
}
