import { sql } from 'kysely';
import type { CompiledQuery } from 'kysely';
import type { RepoScope } from './scope.js';

/**
 * One write statement that is atomic but not flushed to disk before it returns, answering the rows
 * it returns: for writes that a power cut may lose without harm (an open draft's operations and
 * the events that tell of them), never for saved revisions.
 * A process crash loses nothing (the operating system holds the data); only a machine crash can
 * drop the last of these commits, and it then drops them whole, never half.
 *
 * SQLite: the statement commits alone (atomic by itself, so no BEGIN/COMMIT round trips) at
 * `synchronous = NORMAL`, which the connection sets for this statement only (see
 * `sqliteDialect`). PostgreSQL: `synchronous_commit = off` (LOCAL) in a transaction of its own.
 * Inside an open transaction it simply joins it.
 *
 * `written` gets the rows this connection has written (`total_changes()`), read just after the
 * statement with nothing run between, so a cache can tell this write from any other
 * (StampedCache.absorb).
 */
export async function relaxedWrite<R = unknown>(
  scope: RepoScope,
  query: CompiledQuery<R>,
  written?: (rowsWritten: number) => void,
): Promise<R[]> {
  const { db, executeRelaxed } = scope;
  if (db.isTransaction) return (await db.executeQuery(query)).rows;
  if (executeRelaxed === undefined) {
    return scope.transaction(async (tx) => {
      await sql`set local synchronous_commit to off`.execute(tx.db);
      return (await tx.db.executeQuery(query)).rows;
    });
  }
  const { rows, rowsWritten } = await executeRelaxed<R>(db, query);
  written?.(rowsWritten);
  return rows;
}
