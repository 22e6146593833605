import { Migrator } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { StoreError } from '../errors.js';
import { migrations } from './index.js';

/**
 * Brings the schema up to date. Kysely's migrator takes a lock (a lock table on SQLite, an
 * advisory lock on PostgreSQL), so several processes may start at once. Unordered migrations are
 * allowed because domains add theirs independently.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    // No failed migration when none could start (no connection, no such database): then the
    // driver's own words are all there is to say, and they are said either way.
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const what =
      failed === undefined ? 'migrating the database failed' : `migration ${failed} failed`;
    throw new StoreError('migration_failed', `${what}: ${reasonOf(error)}`, { cause: error });
  }
}

/**
 * The message of a driver error. A connection refused on every address of a host name is an
 * AggregateError without a message of its own: its errors' messages, then.
 */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    const inner = (error.errors as unknown[]).map(reasonOf).filter(Boolean);
    if (inner.length) return [...new Set(inner)].join('; ');
  }
  if (error instanceof Error) {
    // Kysely's words for a database that a later version migrated further than this one knows.
    const unknown = /previously executed migration (\S+) is missing/.exec(error.message)?.[1];
    if (unknown) {
      return `it was migrated by a newer Galley (migration ${unknown} is unknown to this version); run that version or a later one`;
    }
    return error.message || error.name;
  }
  return String(error);
}
