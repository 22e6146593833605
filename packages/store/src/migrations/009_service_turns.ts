import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// What several server processes (on one host or many) share besides the records themselves:
// - `service_turns`: one row per periodic task (the sweep), with when it is next due; the
//   process that moves `due_at` on gets the turn, so the task runs once per interval in all.
// - PostgreSQL only, `rate_limits`: the request counters of the whole service, in the layout
//   rate-limiter-flexible's RateLimiterPostgres reads and writes. UNLOGGED: a counter is not
//   worth a WAL write on every request, and losing them in a crash only resets the minute.
//   (On SQLite the cluster's primary process counts instead: a write per request would queue
//   every request behind the one write lock.)
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_turns')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema
      .createTable('rate_limits')
      .modifyFront(sql`unlogged`)
      .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expire', 'bigint')
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').ifExists().execute();
  await db.schema.dropTable('service_turns').execute();
}
