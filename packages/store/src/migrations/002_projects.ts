import type { Kysely } from 'kysely';

// Portable DDL only (Kysely's schema builder with plain types): it runs on SQLite and PostgreSQL.
// Everything of a project goes with it (ON DELETE CASCADE); the bytes stay in the byte store.
export async function up(db: Kysely<unknown>): Promise<void> {
  const project = 'projects.id';

  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('media_version', 'integer', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('project_members')
    .addColumn('project_id', 'text', (c) => c.notNull().references(project).onDelete('cascade'))
    .addColumn('account_number', 'integer', (c) =>
      c.notNull().references('accounts.account_number').onDelete('cascade'),
    )
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pkey', ['project_id', 'account_number'])
    .execute();
  await db.schema
    .createIndex('project_members_account_idx')
    .on('project_members')
    .columns(['account_number', 'project_id'])
    .execute();

  await db.schema
    .createTable('project_revisions')
    .addColumn('project_id', 'text', (c) => c.notNull().references(project).onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('account_number', 'integer', (c) => c.notNull())
    .addColumn('by_name', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('commit_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('media_version', 'integer', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('manifest', 'text', (c) => c.notNull())
    .addColumn('content_digest', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_revisions_pkey', ['project_id', 'revision'])
    .execute();

  await db.schema
    .createTable('project_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references(project).onDelete('cascade'))
    .addColumn('file', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_pages_file_key', ['project_id', 'file'])
    .execute();

  await db.schema
    .createTable('history_steps')
    .addColumn('project_id', 'text', (c) => c.notNull().references(project).onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('after_revision', 'integer', (c) => c.notNull())
    .addColumn('before_revision', 'integer', (c) => c.notNull())
    .addColumn('undone', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('history_steps_pkey', ['project_id', 'seq'])
    .execute();

  // One row per project: the primary key is what lets exactly one of two racing clients win.
  await db.schema
    .createTable('project_locks')
    .addColumn('project_id', 'text', (c) => c.primaryKey().references(project).onDelete('cascade'))
    .addColumn('account_number', 'integer', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('acquired_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) =>
      c.notNull().references('project_pages.id').onDelete('cascade'),
    )
    .addColumn('project_id', 'text', (c) => c.notNull().references(project).onDelete('cascade'))
    .addColumn('account_number', 'integer', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('base_revision', 'integer', (c) => c.notNull())
    .addColumn('base_sha256', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('base_seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('drafts_owner_key', ['page_id', 'account_number', 'client'])
    .execute();

  await db.schema
    .createTable('draft_events')
    .addColumn('draft_id', 'text', (c) => c.notNull().references('drafts.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('operation', 'text')
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text')
    .addColumn('answer', 'text')
    .addPrimaryKeyConstraint('draft_events_pkey', ['draft_id', 'seq'])
    .execute();

  await db.schema
    .createTable('project_commits')
    .addColumn('project_id', 'text', (c) => c.notNull().references(project).onDelete('cascade'))
    .addColumn('commit_id', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_commits_pkey', ['project_id', 'commit_id'])
    .execute();

  await db.schema
    .createTable('confirmations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references(project).onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_digest', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('account_number', 'integer', (c) => c.notNull())
    .addColumn('by_name', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('confirmations_version_key', ['project_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'confirmations',
    'project_commits',
    'draft_events',
    'drafts',
    'project_locks',
    'history_steps',
    'project_pages',
    'project_revisions',
    'project_members',
    'projects',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
