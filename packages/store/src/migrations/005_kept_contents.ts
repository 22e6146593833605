import type { Kysely } from 'kysely';
import { decodeManifest } from '../projects/state.js';
import { ROWS_PER_INSERT, chunks } from '../assets/records.js';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
// The byte store is shared by both interfaces; the asset interface deletes bytes nothing uses,
// and the editing interface's uses (folder files of every revision, confirmed ZIPs) are recorded
// here, so that no release deletes them. Filled from what the projects already hold.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('kept_contents')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .execute();
  const untyped = db as Kysely<{
    project_revisions: { manifest: string };
    confirmations: { sha256: string };
    kept_contents: { sha256: string };
  }>;
  const kept = new Set<string>();
  for (const { manifest } of await untyped
    .selectFrom('project_revisions')
    .select('manifest')
    .execute()) {
    for (const entry of decodeManifest(manifest).values()) kept.add(entry.sha256);
  }
  for (const { sha256 } of await untyped.selectFrom('confirmations').select('sha256').execute()) {
    kept.add(sha256);
  }
  for (const part of chunks([...kept], ROWS_PER_INSERT)) {
    await untyped
      .insertInto('kept_contents')
      .values(part.map((sha256) => ({ sha256 })))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('kept_contents').execute();
}
