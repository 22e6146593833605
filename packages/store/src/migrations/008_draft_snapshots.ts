import type { Kysely } from 'kysely';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
// A draft's page as its events had made it after event `seq`, with `applied` operations in
// effect, so rebuilding the draft reads this page and the events after it instead of replaying
// every event since the base. Derived data: the events stay the record, and a lost snapshot only
// costs a longer replay. A save folds the events into a new base and drops the snapshots.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('draft_snapshots')
    .addColumn('draft_id', 'text', (c) => c.notNull().references('drafts.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('applied', 'integer', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('draft_snapshots_pkey', ['draft_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('draft_snapshots').execute();
}
