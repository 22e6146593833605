import type { Kysely } from 'kysely';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
// Each draft event records when it happened and whether the draft had an operation to undo after
// it, so the page list can say which pages have unsaved changes, by whom and since when, in one
// read (its newest event tells). Events written before this have neither (null).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('draft_events').addColumn('at', 'text').execute();
  await db.schema.alterTable('draft_events').addColumn('can_undo', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('draft_events').dropColumn('can_undo').execute();
  await db.schema.alterTable('draft_events').dropColumn('at').execute();
}
