import { sql } from 'kysely';

export type EventKind = 'operation' | 'undo' | 'redo';

/** What a draft's events amount to, in the shape of the draft engine's log. */
export interface DraftLogRecord {
  /** Operations in effect (oldest first), then the undone ones (next redo first). */
  operations: unknown[];
  applied: number;
}

/** Joins `e`, the newest event of draft `d` (if any). */
export const latestEventJoin = sql`left join draft_events e on e.draft_id = d.id
  and e.seq = (select max(x.seq) from draft_events x where x.draft_id = d.id)`;

/**
 * Replays the events: an operation drops what was redoable, undo and redo move the boundary.
 * `underflow`: an undo went below the first operation (events that continue a snapshot and
 * undo past it).
 */
export function draftLogOf(
  events: ReadonlyArray<{ kind: string; operation: string | null }>,
): DraftLogRecord & { underflow: boolean } {
  const operations: unknown[] = [];
  let applied = 0;
  let underflow = false;
  for (const event of events) {
    if (event.kind === 'operation') {
      operations.length = applied;
      operations.push(JSON.parse(event.operation ?? 'null') as unknown);
      applied += 1;
    } else if (event.kind === 'undo') {
      underflow ||= applied === 0;
      applied = Math.max(0, applied - 1);
    } else {
      applied = Math.min(operations.length, applied + 1);
    }
  }
  return { operations, applied, underflow };
}
