import type { Kysely } from 'kysely';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
// A running request key holds a lease that its request renews; a claim whose lease has ended may
// be taken over by a resend (its process died). `claim_token` names the holder, so only it can
// renew, complete or abandon the claim. Rows written before this migration (or by a process
// that predates it) have no lease: they fall back to the old rule (15 minutes after creation).
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds a single column.
  await db.schema.alterTable('request_keys').addColumn('lease_until', 'text').execute();
  await db.schema.alterTable('request_keys').addColumn('claim_token', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('request_keys').dropColumn('claim_token').execute();
  await db.schema.alterTable('request_keys').dropColumn('lease_until').execute();
}
