import type { Kysely } from 'kysely';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('account_number', 'integer', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('accounts_email_key', ['email'])
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_number', 'integer', (c) =>
      c.notNull().references('accounts.account_number').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addUniqueConstraint('api_tokens_token_hash_key', ['token_hash'])
    .execute();
  await db.schema
    .createIndex('api_tokens_account_idx')
    .on('api_tokens')
    .columns(['account_number', 'created_at'])
    .execute();

  await db.schema
    .createTable('screen_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_number', 'integer', (c) =>
      c.notNull().references('accounts.account_number').onDelete('cascade'),
    )
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('screen_sessions_expires_idx')
    .on('screen_sessions')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('screen_sessions').execute();
  await db.schema.dropTable('api_tokens').execute();
  await db.schema.dropTable('accounts').execute();
}
