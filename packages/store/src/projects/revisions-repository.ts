import { sql } from 'kysely';
import { newId } from '../ids.js';
import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';
import type { FolderState, PageEntry, RevisionState } from './state.js';
import { contentDigestOf, decodeManifest, encodeManifest, nextManifest } from './state.js';

export type HistoryKind = 'create' | 'save' | 'title' | 'folder' | 'undo' | 'redo';

export interface HistoryEntryRecord {
  revision: number;
  kind: HistoryKind;
  page: { id: string; file: string } | null;
  summary: string;
  byName: string;
  at: string;
  commitId: string | null;
}

/**
 * How a new revision moves the undo/redo stacks: `change` pushes an undoable step and drops
 * the redo stack, `undo`/`redo` move the top step across, `none` leaves them (creation).
 */
type StepEffect = 'change' | 'none' | { undo: number } | { redo: number };

export interface RecordRevision {
  projectId: string;
  kind: HistoryKind;
  state: FolderState;
  summary: string;
  accountNumber: number;
  byName: string;
  pageId?: string | null;
  commitId?: string | null;
  /** The time of the entry (default: now). */
  at?: string;
  step: StepEffect;
}

export type HistoryMoveResult =
  { ok: true; revision: number } | { ok: false; code: 'nothing_to_undo' | 'nothing_to_redo' };

/** Saved revisions, the history they form, and page ids. Call the writers inside a transaction. */
export class RevisionsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Records the next revision with `state` and makes it current. The caller holds the project
   * row (`projects.lockRow`) inside the same transaction.
   */
  async record(input: RecordRevision): Promise<RevisionState> {
    const { db, clock } = this.#scope;
    const current = await db
      .selectFrom('projects')
      .select('revision')
      .where('id', '=', input.projectId)
      .executeTakeFirstOrThrow();
    const revision = current.revision + 1;
    const previous =
      current.revision > 0 ? await this.state(input.projectId, current.revision) : null;
    const manifest = nextManifest(input.state.files, previous?.manifest ?? null, revision);
    const contentDigest = contentDigestOf(input.state.files);
    const at = input.at ?? isoTime(clock.now());
    await this.ensurePageIds(
      input.projectId,
      input.state.pages.map((p) => p.file),
    );
    await db
      .insertInto('project_revisions')
      .values({
        project_id: input.projectId,
        revision,
        kind: input.kind,
        page_id: input.pageId ?? null,
        summary: input.summary,
        account_number: input.accountNumber,
        by_name: input.byName,
        at,
        commit_id: input.commitId ?? null,
        title: input.state.title,
        media_id: input.state.media.id,
        media_version: input.state.media.version,
        pages: JSON.stringify(input.state.pages),
        manifest: encodeManifest(manifest),
        content_digest: contentDigest,
      })
      .execute();
    await db
      .updateTable('projects')
      .set({
        revision,
        title: input.state.title,
        media_id: input.state.media.id,
        media_version: input.state.media.version,
        page_count: input.state.pages.length,
        updated_at: at,
      })
      .where('id', '=', input.projectId)
      .execute();
    await this.#moveSteps(input.projectId, input.step, revision, current.revision);
    return {
      projectId: input.projectId,
      revision,
      title: input.state.title,
      media: input.state.media,
      pages: input.state.pages,
      manifest,
      contentDigest,
    };
  }

  /** A revision's state, or null when the project has no such revision. */
  async state(projectId: string, revision: number): Promise<RevisionState | null> {
    const row = await this.#scope.db
      .selectFrom('project_revisions')
      .select(['title', 'media_id', 'media_version', 'pages', 'manifest', 'content_digest'])
      .where('project_id', '=', projectId)
      .where('revision', '=', revision)
      .executeTakeFirst();
    if (!row) return null;
    return {
      projectId,
      revision,
      title: row.title,
      media: { id: row.media_id, version: row.media_version },
      pages: JSON.parse(row.pages) as PageEntry[],
      manifest: decodeManifest(row.manifest),
      contentDigest: row.content_digest,
    };
  }

  /** History entries newest first: `limit` of them below revision `before`. */
  async history(
    projectId: string,
    options: { limit: number; before?: number },
  ): Promise<HistoryEntryRecord[]> {
    let query = this.#scope.db
      .selectFrom('project_revisions as r')
      .leftJoin('project_pages as pg', 'pg.id', 'r.page_id')
      .select([
        'r.revision',
        'r.kind',
        'r.page_id',
        'pg.file',
        'r.summary',
        'r.by_name',
        'r.at',
        'r.commit_id',
      ])
      .where('r.project_id', '=', projectId);
    if (options.before !== undefined) query = query.where('r.revision', '<', options.before);
    const rows = await query.orderBy('r.revision', 'desc').limit(options.limit).execute();
    return rows.map((row) => ({
      revision: row.revision,
      kind: row.kind as HistoryKind,
      page: row.page_id !== null && row.file !== null ? { id: row.page_id, file: row.file } : null,
      summary: row.summary,
      byName: row.by_name,
      at: row.at,
      commitId: row.commit_id,
    }));
  }

  async flags(projectId: string): Promise<{ canUndo: boolean; canRedo: boolean }> {
    const [undo, redo] = await Promise.all([
      this.#top(projectId, 'undo'),
      this.#top(projectId, 'redo'),
    ]);
    return { canUndo: undo !== null, canRedo: redo !== null };
  }

  /**
   * Undo or redo of the saved history: a new revision whose state is the one restored. The
   * caller holds the project row and has checked the revision precondition.
   */
  async move(input: {
    projectId: string;
    direction: 'undo' | 'redo';
    accountNumber: number;
    byName: string;
  }): Promise<HistoryMoveResult> {
    const step = await this.#top(input.projectId, input.direction);
    if (!step)
      return {
        ok: false,
        code: input.direction === 'undo' ? 'nothing_to_undo' : 'nothing_to_redo',
      };
    const restore = input.direction === 'undo' ? step.before_revision : step.after_revision;
    const target = (await this.state(input.projectId, restore))!;
    const change = await this.#scope.db
      .selectFrom('project_revisions')
      .select(['page_id', 'summary'])
      .where('project_id', '=', input.projectId)
      .where('revision', '=', step.after_revision)
      .executeTakeFirstOrThrow();
    const verb = input.direction === 'undo' ? 'Undid' : 'Redid';
    const recorded = await this.record({
      projectId: input.projectId,
      kind: input.direction,
      state: { ...target, files: target.manifest },
      summary: `${verb} revision ${step.after_revision}: ${change.summary}`,
      accountNumber: input.accountNumber,
      byName: input.byName,
      pageId: change.page_id,
      step: input.direction === 'undo' ? { undo: step.seq } : { redo: step.seq },
    });
    return { ok: true, revision: recorded.revision };
  }

  /** Page ids of the project's files, created for files that never had one. */
  async ensurePageIds(projectId: string, files: readonly string[]): Promise<Map<string, string>> {
    const ids = await this.pageIds(projectId);
    const missing = files.filter((file) => !ids.has(file));
    if (missing.length) {
      const rows = missing.map((file) => [newId('pg'), file] as const);
      // One JSON parameter the database unpacks, not a VALUES row per page: Kysely builds those
      // node by node (a folder of 300 pages held the event loop ~20 ms with its garbage).
      const list = JSON.stringify(rows);
      await (
        this.#scope.kind === 'postgres'
          ? sql`insert into project_pages (id, project_id, file)
              select listed.value->>0, ${projectId}, listed.value->>1
              from jsonb_array_elements(${list}::jsonb) as listed(value)`
          : sql`insert into project_pages (id, project_id, file)
              select value->>0, ${projectId}, value->>1 from json_each(${list})`
      ).execute(this.#scope.db);
      for (const [id, file] of rows) ids.set(file, id);
    }
    return ids;
  }

  async pageIds(projectId: string): Promise<Map<string, string>> {
    const rows = await this.#scope.db
      .selectFrom('project_pages')
      .select(['id', 'file'])
      .where('project_id', '=', projectId)
      .execute();
    return new Map(rows.map((row) => [row.file, row.id]));
  }

  /** The answer a save with this commit id gave, or null. */
  async findCommit(projectId: string, commitId: string): Promise<unknown> {
    const row = await this.#scope.db
      .selectFrom('project_commits')
      .select('answer')
      .where('project_id', '=', projectId)
      .where('commit_id', '=', commitId)
      .executeTakeFirst();
    return row ? (JSON.parse(row.answer) as unknown) : null;
  }

  async recordCommit(projectId: string, commitId: string, answer: unknown): Promise<void> {
    await this.#scope.db
      .insertInto('project_commits')
      .values({
        project_id: projectId,
        commit_id: commitId,
        answer: JSON.stringify(answer),
        created_at: isoTime(this.#scope.clock.now()),
      })
      .execute();
  }

  async #top(projectId: string, direction: 'undo' | 'redo') {
    return (
      (await this.#scope.db
        .selectFrom('history_steps')
        .select(['seq', 'after_revision', 'before_revision'])
        .where('project_id', '=', projectId)
        .where('undone', '=', direction === 'undo' ? 0 : 1)
        .orderBy('seq', direction === 'undo' ? 'desc' : 'asc')
        .limit(1)
        .executeTakeFirst()) ?? null
    );
  }

  async #moveSteps(projectId: string, effect: StepEffect, after: number, before: number) {
    const { db } = this.#scope;
    if (effect === 'none') return;
    if (effect === 'change') {
      await db
        .deleteFrom('history_steps')
        .where('project_id', '=', projectId)
        .where('undone', '=', 1)
        .execute();
      const { max } = await db
        .selectFrom('history_steps')
        .select((eb) => eb.fn.max('seq').as('max'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('history_steps')
        .values({
          project_id: projectId,
          seq: Number(max ?? 0) + 1,
          after_revision: after,
          before_revision: before,
          undone: 0,
        })
        .execute();
      return;
    }
    const [seq, undone] = 'undo' in effect ? [effect.undo, 1] : [effect.redo, 0];
    await db
      .updateTable('history_steps')
      .set({ undone })
      .where('project_id', '=', projectId)
      .where('seq', '=', seq)
      .execute();
  }
}
