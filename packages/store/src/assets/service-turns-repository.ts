import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';

/**
 * Turns at periodic work shared by every process on the database (the sweep): whoever finds a
 * task due moves its next time on and gets the turn; the others, finding it moved, do not. So
 * the work runs once per interval across all processes and hosts, whatever their number.
 */
export class ServiceTurnsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Whether this caller gets the turn at `task` now: true when the task was due (or never ran),
   * and it is then due again `everyMs` later. One statement each, so two callers never both win.
   */
  async take(task: string, everyMs: number): Promise<boolean> {
    const now = this.#scope.clock.now();
    const next = isoTime(new Date(now.getTime() + everyMs));
    const { db } = this.#scope;
    const inserted = await db
      .insertInto('service_turns')
      .values({ name: task, due_at: next })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
    const moved = await db
      .updateTable('service_turns')
      .set({ due_at: next })
      .where('name', '=', task)
      .where('due_at', '<=', isoTime(now))
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) > 0;
  }
}
