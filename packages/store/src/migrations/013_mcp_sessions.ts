import type { Kysely } from 'kysely';

// Portable DDL only: it runs on SQLite and PostgreSQL. An MCP session over Streamable HTTP is a
// row, so that any process of the service can serve its next request: the account it acts for,
// the editor client its locks are held by, their label, and the client's `initialize` (JSON), which
// a process replays to build its own copy of the session.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_number', 'integer', (c) =>
      c.notNull().references('accounts.account_number').onDelete('cascade'),
    )
    .addColumn('token_id', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('initialize', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema
    .createIndex('mcp_sessions_account_idx')
    .on('mcp_sessions')
    .columns(['account_number', 'ended_at'])
    .execute();
  await db.schema
    .createIndex('mcp_sessions_seen_idx')
    .on('mcp_sessions')
    .columns(['ended_at', 'seen_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_sessions').execute();
}
