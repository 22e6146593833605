import { sql } from 'kysely';
import { newId } from '../ids.js';
import { deleteRowByKey } from '../rows.js';
import type { RepoScope } from '../scope.js';
import type { StampedCache } from '../stamped-cache.js';
import { isoTime } from '../time.js';
import { RevisionsRepository } from './revisions-repository.js';
import type { FolderState, MediaRef } from './state.js';
import type { ProjectsTable } from './tables.js';

export type ProjectRole = 'owner' | 'editor' | 'viewer';

export interface ProjectRecord {
  id: string;
  title: string;
  media: MediaRef;
  pageCount: number;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** A project as one account sees it. */
export interface ProjectAccess {
  project: ProjectRecord;
  role: ProjectRole;
}

/** A page id with its file, its project and the account's role there. */
export interface PageAccess extends ProjectAccess {
  page: { id: string; file: string };
}

/** Where a listing continues: after this (created_at, id), newest first. */
export interface ProjectCursor {
  createdAt: string;
  id: string;
}

export function toProject(row: ProjectsTable): ProjectRecord {
  return {
    id: row.id,
    title: row.title,
    media: { id: row.media_id, version: row.media_version },
    pageCount: row.page_count,
    revision: row.revision,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const PROJECT_COLUMNS = [
  'p.id',
  'p.title',
  'p.media_id',
  'p.media_version',
  'p.page_count',
  'p.revision',
  'p.created_at',
  'p.updated_at',
] as const;

export class ProjectsRepository {
  readonly #scope: RepoScope;
  readonly #accessReads: StampedCache<ProjectAccess | null>;

  /** `accessReads`: the store's answers of `access` (see `projectCaches`). */
  constructor(scope: RepoScope, accessReads: StampedCache<ProjectAccess | null>) {
    this.#scope = scope;
    this.#accessReads = accessReads;
  }

  /** A new project at revision 1 (history kind `create`) whose first owner is the creator. */
  async create(input: {
    accountNumber: number;
    byName: string;
    state: FolderState;
  }): Promise<ProjectRecord> {
    return this.#scope.transaction(async (tx) => {
      const now = isoTime(tx.clock.now());
      const id = newId('prj');
      await tx.db
        .insertInto('projects')
        .values({
          id,
          title: input.state.title,
          media_id: input.state.media.id,
          media_version: input.state.media.version,
          page_count: input.state.pages.length,
          revision: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await tx.db
        .insertInto('project_members')
        .values({
          project_id: id,
          account_number: input.accountNumber,
          role: 'owner',
          added_at: now,
          project_created_at: now,
        })
        .execute();
      await new RevisionsRepository(tx).record({
        projectId: id,
        kind: 'create',
        state: input.state,
        summary: `Created “${input.state.title}”`,
        accountNumber: input.accountNumber,
        byName: input.byName,
        step: 'none',
      });
      return (await this.#find(tx, id))!;
    });
  }

  /**
   * The project and the account's role in it, or null when absent or not a member. Every project
   * request starts here, so outside a transaction the answer is remembered until anything is
   * written (see StampedCache); callers must not change it.
   */
  async access(projectId: string, accountNumber: number): Promise<ProjectAccess | null> {
    const reads = this.#scope.db.isTransaction ? undefined : this.#accessReads;
    const key = `${projectId} ${accountNumber}`;
    const seen = reads?.lookup(key);
    if (seen?.value !== undefined) return seen.value;
    // SQL text (portable): building this query with the builder costs more than running it.
    const { rows } = await sql<ProjectsTable & { role: string }>`
      select p.id, p.title, p.media_id, p.media_version, p.page_count, p.revision,
        p.created_at, p.updated_at, m.role
      from projects p join project_members m on m.project_id = p.id
      where p.id = ${projectId} and m.account_number = ${accountNumber}`.execute(this.#scope.db);
    const row = rows[0];
    const access = row ? { project: toProject(row), role: row.role as ProjectRole } : null;
    reads?.remember(key, access, seen?.since);
    return access;
  }

  /** The page's project and the account's role in it, or null when absent or not a member. */
  async pageAccess(pageId: string, accountNumber: number): Promise<PageAccess | null> {
    const row = await this.#scope.db
      .selectFrom('project_pages as pg')
      .innerJoin('projects as p', 'p.id', 'pg.project_id')
      .innerJoin('project_members as m', 'm.project_id', 'p.id')
      .select([...PROJECT_COLUMNS, 'm.role', 'pg.file'])
      .where('pg.id', '=', pageId)
      .where('m.account_number', '=', accountNumber)
      .executeTakeFirst();
    if (!row) return null;
    return {
      project: toProject(row),
      role: row.role as ProjectRole,
      page: { id: pageId, file: row.file },
    };
  }

  /**
   * The account's projects, newest first, `limit` of them after `after`. The membership index
   * (migration 007) holds them in this order, so a page reads `limit` entries whatever the
   * account's number of projects; the row comparison lets the cursor seek into it.
   */
  async listFor(
    accountNumber: number,
    options: { limit: number; after?: ProjectCursor },
  ): Promise<ProjectAccess[]> {
    let query = this.#scope.db
      .selectFrom('project_members as m')
      .innerJoin('projects as p', 'p.id', 'm.project_id')
      .select([...PROJECT_COLUMNS, 'm.role'])
      .where('m.account_number', '=', accountNumber);
    const after = options.after;
    if (after) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('m.project_created_at', 'm.project_id'),
          '<',
          eb.tuple(after.createdAt, after.id),
        ),
      );
    }
    const rows = await query
      .orderBy('m.project_created_at', 'desc')
      .orderBy('m.project_id', 'desc')
      .limit(options.limit)
      .execute();
    return rows.map((row) => ({ project: toProject(row), role: row.role as ProjectRole }));
  }

  async find(projectId: string): Promise<ProjectRecord | null> {
    return this.#find(this.#scope, projectId);
  }

  /**
   * Inside a transaction: reads the project and, on PostgreSQL, locks its row so that project
   * writes (revisions, members, confirmations) queue instead of interleaving. SQLite
   * transactions already hold the write lock from their start.
   */
  async lockRow(projectId: string): Promise<ProjectRecord | null> {
    let query = this.#scope.db
      .selectFrom('projects as p')
      .select(PROJECT_COLUMNS)
      .where('p.id', '=', projectId);
    if (this.#scope.kind === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row ? toProject(row) : null;
  }

  /** Removes the project and everything recorded about it. */
  async delete(projectId: string): Promise<boolean> {
    return deleteRowByKey(this.#scope.db, 'projects', 'id', projectId);
  }

  async #find(scope: RepoScope, id: string): Promise<ProjectRecord | null> {
    const row = await scope.db
      .selectFrom('projects as p')
      .select(PROJECT_COLUMNS)
      .where('p.id', '=', id)
      .executeTakeFirst();
    return row ? toProject(row) : null;
  }
}
