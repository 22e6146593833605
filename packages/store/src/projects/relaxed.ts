import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { RepoScope } from '../scope.js';

/**
 * One write statement that is atomic but not flushed to disk before it returns: for writes that
 * a power cut may lose without harm (an open draft's operations), never for saved revisions.
 * A process crash loses nothing (the operating system holds the data); only a machine crash can
 * drop the last of these commits, and it then drops them whole, never half.
 *
 * SQLite: the statement commits alone (atomic by itself, so no BEGIN/COMMIT round trips), with
 * `synchronous = NORMAL` around it on the one connection held throughout, then FULL again
 * (see `RepoScope.relaxCommits`). PostgreSQL: `synchronous_commit = off` (LOCAL) in a
 * transaction of its own.
 * Inside an open transaction it simply joins it.
 *
 * `written` gets the rows this connection has written (`total_changes()`), read just after the
 * statement with the connection still held, so a cache can tell this write from any other
 * (StampedCache.absorb).
 */
export async function relaxedWrite<T>(
  scope: RepoScope,
  write: (db: Kysely<Database>) => Promise<T>,
  written?: (rowsWritten: number) => void,
): Promise<T> {
  if (scope.db.isTransaction) return write(scope.db);
  const { relaxCommits, rowsWritten } = scope;
  if (relaxCommits === undefined || rowsWritten === undefined) {
    return scope.transaction(async (tx) => {
      await sql`set local synchronous_commit to off`.execute(tx.db);
      return write(tx.db);
    });
  }
  return scope.db.connection().execute(async (db) => {
    relaxCommits(true);
    try {
      const value = await write(db);
      written?.(rowsWritten());
      return value;
    } finally {
      relaxCommits(false);
    }
  });
}
