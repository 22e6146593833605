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
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new StoreError('migration_failed', `migration ${failed} failed`, { cause: error });
  }
}
