import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
// A member's project list is sorted by the project's creation time, newest first. With that time
// on the membership row, one index holds the account's projects in list order, so a page reads
// `per_page` index entries instead of sorting every membership of the account. A project's
// creation time never changes, so the copy cannot go stale.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('project_members')
    .addColumn('project_created_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update project_members set project_created_at =
    (select p.created_at from projects p where p.id = project_members.project_id)`.execute(db);
  await db.schema
    .createIndex('project_members_listing_idx')
    .on('project_members')
    .columns(['account_number', 'project_created_at', 'project_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('project_members_listing_idx').execute();
  await db.schema.alterTable('project_members').dropColumn('project_created_at').execute();
}
