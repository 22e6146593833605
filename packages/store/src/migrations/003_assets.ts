import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('state_changed_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('current_revision', 'integer', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('media', 'text', (c) => c.notNull())
    .addColumn('media_ids', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('assets_by_updated_idx')
    .on('assets')
    .columns(['owner', 'state', 'updated_at', 'id'])
    .execute();
  await db.schema
    .createIndex('assets_by_title_idx')
    .on('assets')
    .columns(['owner', 'state', 'title_key', 'id'])
    .execute();
  await db.schema
    .createIndex('assets_trash_idx')
    .on('assets')
    .columns(['state', 'state_changed_at'])
    .execute();

  await db.schema
    .createTable('asset_revisions')
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('inspection', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('media', 'text', (c) => c.notNull())
    .addColumn('erased_at', 'text')
    .addColumn('erase_reason', 'text')
    .addPrimaryKeyConstraint('asset_revisions_pkey', ['asset_id', 'number'])
    .execute();

  await db.schema
    .createTable('asset_files')
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('from_revision', 'integer', (c) => c.notNull())
    .addColumn('to_revision', 'integer')
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('schema_uri', 'text')
    .addPrimaryKeyConstraint('asset_files_pkey', ['asset_id', 'path', 'from_revision'])
    .execute();
  // At most one current version of a path: two writers racing on one asset cannot both open it.
  await db.schema
    .createIndex('asset_files_current_key')
    .on('asset_files')
    .columns(['asset_id', 'path'])
    .unique()
    .where(sql.ref('to_revision'), 'is', null)
    .execute();
  await db.schema
    .createIndex('asset_files_revision_idx')
    .on('asset_files')
    .columns(['asset_id', 'from_revision'])
    .execute();
  await db.schema
    .createIndex('asset_files_sha256_idx')
    .on('asset_files')
    .column('sha256')
    .execute();

  await db.schema
    .createTable('blobs')
    .addColumn('account_number', 'integer', (c) =>
      c.notNull().references('accounts.account_number').onDelete('cascade'),
    )
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blobs_pkey', ['account_number', 'sha256'])
    .execute();
  await db.schema.createIndex('blobs_expires_idx').on('blobs').column('expires_at').execute();
  await db.schema.createIndex('blobs_sha256_idx').on('blobs').column('sha256').execute();

  await db.schema
    .createTable('request_keys')
    .addColumn('account_number', 'integer', (c) =>
      c.notNull().references('accounts.account_number').onDelete('cascade'),
    )
    .addColumn('request_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_keys_pkey', ['account_number', 'request_key'])
    .execute();
  await db.schema
    .createIndex('request_keys_expires_idx')
    .on('request_keys')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['request_keys', 'blobs', 'asset_files', 'asset_revisions', 'assets']) {
    await db.schema.dropTable(table).execute();
  }
}
