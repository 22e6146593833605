import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// PostgreSQL only: how many write statements have committed, for the caches' stamp there (what
// SQLite's `data_version` is; fresh-reads.ts). Every table but those below counts its writes
// (one trigger per table, per statement): a row per server connection (backend), bumped by that
// connection alone, so two transactions never wait on one counter; their sum moves with every
// commit that wrote, and only on commit. A table added later counts its writes too
// (`countChangesOf`; a test checks that every table does).

/**
 * Tables whose writes change nothing any cache holds: the per-request counters, the MCP sessions
 * (seen at every call; migration 013, listed here for the test: this migration ran before it),
 * and this one.
 */
export const UNCOUNTED_TABLES = [
  'rate_limits',
  'mcp_sessions',
  'change_counts',
  'kysely_migration',
  'kysely_migration_lock',
];

/** The trigger that counts the writes of `table` (PostgreSQL). */
export async function countChangesOf(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`create trigger ${sql.id(`${table}_counts_changes`)}
    after insert or update or delete or truncate on ${sql.id(table)}
    for each statement execute function count_change()`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // `backend` 0: what the rows of ended connections added up to (see compactChangeCounts).
  await sql`create table change_counts (backend integer primary key, n bigint not null)`.execute(
    db,
  );
  await sql`insert into change_counts values (0, 0)`.execute(db);
  await sql`create function count_change() returns trigger language plpgsql as $$
    begin
      insert into change_counts values (pg_backend_pid(), 1)
        on conflict (backend) do update set n = change_counts.n + 1;
      return null;
    end $$`.execute(db);
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = current_schema()`.execute(db);
  for (const { name } of rows) {
    if (!UNCOUNTED_TABLES.includes(name)) await countChangesOf(db, name);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function count_change() cascade`.execute(db);
  await sql`drop table change_counts`.execute(db);
}
