import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { RepoScope } from '../scope.js';

/**
 * A transaction that is atomic but not flushed to disk before it returns: for writes that a
 * power cut may lose without harm (an open draft's operations), never for saved revisions.
 * A process crash loses nothing (the operating system holds the data); only a machine crash can
 * drop the last of these commits, and it then drops them whole, never half.
 *
 * SQLite: `synchronous = NORMAL` for this one transaction, on the one connection held
 * throughout, then the previous setting back. PostgreSQL: `synchronous_commit = off` (LOCAL).
 * Inside an open transaction it simply joins it.
 */
export async function relaxedTransaction<T>(
  scope: RepoScope,
  fn: (tx: RepoScope) => Promise<T>,
): Promise<T> {
  if (scope.db.isTransaction) return fn(scope);
  if (scope.kind === 'postgres') {
    return scope.transaction(async (tx) => {
      await sql`set local synchronous_commit to off`.execute(tx.db);
      return fn(tx);
    });
  }
  return scope.db.connection().execute(async (db) => {
    const previous = await settingOf(scope.db, db);
    await sql`pragma synchronous = normal`.execute(db);
    try {
      return await db.transaction().execute((trx) => fn(bindScope(scope, trx)));
    } finally {
      await sql.raw(`pragma synchronous = ${previous}`).execute(db);
    }
  });
}

/** The connection's own setting, read once per store (it does not change). */
const settings = new WeakMap<Kysely<Database>, number>();
async function settingOf(store: Kysely<Database>, connection: Kysely<Database>): Promise<number> {
  let value = settings.get(store);
  if (value === undefined) {
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(connection);
    value = Number(rows[0]?.synchronous ?? 2);
    settings.set(store, value);
  }
  return value;
}

function bindScope(scope: RepoScope, db: Kysely<Database>): RepoScope {
  const bound: RepoScope = {
    ...scope,
    db,
    transaction: (fn) => fn(bound),
  };
  return bound;
}
