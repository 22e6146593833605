import type { Kysely } from 'kysely';

// Portable DDL only: it runs on SQLite and PostgreSQL. A request key's first answer that shows a
// revision in full (a new revision of a 2,000-file production lists 2,000 files) names that
// revision here instead of holding a copy of its files and inspection, which the revision keeps
// already; the index finds those answers when the asset is deleted for good, to write them out.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds a single column.
  await db.schema.alterTable('request_keys').addColumn('shown_asset_id', 'text').execute();
  await db.schema.alterTable('request_keys').addColumn('shown_revision', 'integer').execute();
  await db.schema
    .createIndex('request_keys_shown_asset')
    .on('request_keys')
    .column('shown_asset_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('request_keys_shown_asset').execute();
  await db.schema.alterTable('request_keys').dropColumn('shown_revision').execute();
  await db.schema.alterTable('request_keys').dropColumn('shown_asset_id').execute();
}
