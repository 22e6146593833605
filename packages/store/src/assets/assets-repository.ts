import { sql } from 'kysely';
import type { Inspection, JudgedMedium } from '@galley/core';
import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';
import type { AssetsTable } from './tables.js';
import type {
  AssetListFilter,
  AssetRecord,
  AssetState,
  FileRecord,
  NewAsset,
  RevisionRecord,
  RevisionWrite,
} from './records.js';
import {
  ROWS_PER_INSERT,
  VALUES_PER_LIST,
  chunks,
  likeContains,
  summaryOf,
  toAsset,
  toFile,
} from './records.js';

export class AssetsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  async find(id: string): Promise<AssetRecord | null> {
    const row = await this.#scope.db
      .selectFrom('assets')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toAsset(row) : null;
  }

  /**
   * Inside a transaction: reads the asset and, on PostgreSQL, locks its row until the
   * transaction ends, so a write decided on what it read (a state move, a purge) queues behind
   * another instead of deciding on a state that is changing. SQLite transactions already hold the
   * write lock from their start.
   */
  async lockRow(id: string): Promise<AssetRecord | null> {
    let query = this.#scope.db.selectFrom('assets').selectAll().where('id', '=', id);
    if (this.#scope.kind === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row ? toAsset(row) : null;
  }

  /** Lists one page of assets in a stable order (the id breaks ties). */
  async list(filter: AssetListFilter): Promise<AssetRecord[]> {
    const byTitle = filter.sort === 'title';
    const key = byTitle ? 'title_key' : 'updated_at';
    let query = this.#scope.db
      .selectFrom('assets')
      .selectAll()
      .where('owner', 'in', filter.owners)
      .where('state', '=', filter.state);
    if (filter.kinds?.length) query = query.where('kind', 'in', filter.kinds);
    if (filter.verdict) query = query.where('verdict', '=', filter.verdict);
    if (filter.q)
      query = query.where(
        sql<boolean>`title_key like ${likeContains(filter.q.toLowerCase())} escape '\\'`,
      );
    if (filter.mediumId)
      query = query.where(
        sql<boolean>`media_ids like ${likeContains(` ${filter.mediumId} `)} escape '\\'`,
      );
    const after = filter.after;
    if (after) {
      const beyond = byTitle ? '>' : '<';
      query = query.where((eb) =>
        eb.or([
          eb(key, beyond, after.key),
          eb.and([eb(key, '=', after.key), eb('id', beyond, after.id)]),
        ]),
      );
    }
    const direction = byTitle ? 'asc' : 'desc';
    const rows = await query
      .orderBy(key, direction)
      .orderBy('id', direction)
      .limit(filter.limit)
      .execute();
    return rows.map(toAsset);
  }

  async revision(assetId: string, number: number): Promise<RevisionRecord | null> {
    const row = await this.#scope.db
      .selectFrom('asset_revisions')
      .select(['asset_id', 'number', 'created_at', 'inspection', 'erased_at', 'erase_reason'])
      .where('asset_id', '=', assetId)
      .where('number', '=', number)
      .executeTakeFirst();
    return row
      ? {
          assetId: row.asset_id,
          number: row.number,
          createdAt: row.created_at,
          inspection: JSON.parse(row.inspection) as Inspection,
          erasedAt: row.erased_at,
          eraseReason: row.erase_reason,
        }
      : null;
  }

  /** Revisions newest first, below `before` when given; inspection reduced to verdict and media. */
  async revisions(
    assetId: string,
    options: { before?: number; limit: number },
  ): Promise<
    Array<{
      number: number;
      createdAt: string;
      erased: boolean;
      verdict: Inspection['verdict'];
      media: JudgedMedium[];
    }>
  > {
    let query = this.#scope.db
      .selectFrom('asset_revisions')
      .select(['number', 'created_at', 'erased_at', 'verdict', 'media'])
      .where('asset_id', '=', assetId);
    if (options.before !== undefined) query = query.where('number', '<', options.before);
    const rows = await query.orderBy('number', 'desc').limit(options.limit).execute();
    return rows.map((row) => ({
      number: row.number,
      createdAt: row.created_at,
      erased: row.erased_at !== null,
      verdict: row.verdict as Inspection['verdict'],
      media: JSON.parse(row.media) as JudgedMedium[],
    }));
  }

  /** The files of a revision, by path. */
  async files(assetId: string, number: number): Promise<FileRecord[]> {
    const rows = await this.#scope.db
      .selectFrom('asset_files')
      .select(['path', 'sha256', 'media_type', 'size', 'schema_uri'])
      .where('asset_id', '=', assetId)
      .where('from_revision', '<=', number)
      .where((eb) => eb.or([eb('to_revision', 'is', null), eb('to_revision', '>', number)]))
      .orderBy('path')
      .execute();
    return rows.map(toFile);
  }

  async file(assetId: string, number: number, path: string): Promise<FileRecord | null> {
    const row = await this.#scope.db
      .selectFrom('asset_files')
      .select(['path', 'sha256', 'media_type', 'size', 'schema_uri'])
      .where('asset_id', '=', assetId)
      .where('path', '=', path)
      .where('from_revision', '<=', number)
      .where((eb) => eb.or([eb('to_revision', 'is', null), eb('to_revision', '>', number)]))
      .executeTakeFirst();
    return row ? toFile(row) : null;
  }

  /** Creates an active asset with revision 1 (a unique violation when the id exists). */
  async create(input: NewAsset): Promise<AssetRecord> {
    return this.#scope.transaction(async ({ db, clock }) => {
      const now = isoTime(clock.now());
      const row: AssetsTable = {
        id: input.id,
        owner: input.owner,
        kind: input.kind,
        title: input.title,
        title_key: input.title.toLowerCase(),
        state: 'active',
        state_changed_at: now,
        created_at: now,
        updated_at: now,
        current_revision: 1,
        ...summaryOf(input.inspection),
      };
      await db.insertInto('assets').values(row).execute();
      await this.#insertRevision(db, input.id, 1, input.inspection, now);
      await this.#insertFiles(db, input.id, 1, input.files);
      return toAsset(row);
    });
  }

  /**
   * Adds revision `number` on top of `number - 1`: rows open only for the changed paths. The
   * asset's revision moves by compare-and-set, so of two writers on one base exactly one wins.
   */
  async addRevision(input: {
    assetId: string;
    number: number;
    put: FileRecord[];
    remove: string[];
    inspection: Inspection;
  }): Promise<RevisionWrite> {
    return this.#scope.transaction(async ({ db, clock }) => {
      const now = isoTime(clock.now());
      const moved = await db
        .updateTable('assets')
        .set({ current_revision: input.number, updated_at: now, ...summaryOf(input.inspection) })
        .where('id', '=', input.assetId)
        .where('current_revision', '=', input.number - 1)
        .returningAll()
        .executeTakeFirst();
      if (!moved) {
        const current = await db
          .selectFrom('assets')
          .select('current_revision')
          .where('id', '=', input.assetId)
          .executeTakeFirst();
        return current
          ? { ok: false, code: 'conflict', currentRevision: current.current_revision }
          : { ok: false, code: 'gone' };
      }
      await this.#insertRevision(db, input.assetId, input.number, input.inspection, now);
      const closed = [...input.remove, ...input.put.map((f) => f.path)];
      for (const paths of chunks(closed, VALUES_PER_LIST)) {
        await db
          .updateTable('asset_files')
          .set({ to_revision: input.number })
          .where('asset_id', '=', input.assetId)
          .where('to_revision', 'is', null)
          .where('path', 'in', paths)
          .execute();
      }
      await this.#insertFiles(db, input.assetId, input.number, input.put);
      return { ok: true, asset: toAsset(moved) };
    });
  }

  async rename(id: string, title: string): Promise<void> {
    await this.#scope.db
      .updateTable('assets')
      .set({ title, title_key: title.toLowerCase(), updated_at: this.#now() })
      .where('id', '=', id)
      .execute();
  }

  /** Moves the asset to `to`; decide the move on its row read with `lockRow`. */
  async setState(id: string, to: AssetState): Promise<void> {
    const now = this.#now();
    await this.#scope.db
      .updateTable('assets')
      .set({ state: to, state_changed_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Removes the asset and all its revisions; answers the contents it referenced. */
  async delete(id: string): Promise<string[]> {
    return this.#scope.transaction(async ({ db }) => {
      const rows = await db
        .selectFrom('asset_files')
        .select('sha256')
        .distinct()
        .where('asset_id', '=', id)
        .execute();
      await db.deleteFrom('asset_files').where('asset_id', '=', id).execute();
      await db.deleteFrom('asset_revisions').where('asset_id', '=', id).execute();
      await db.deleteFrom('assets').where('id', '=', id).execute();
      return rows.map((r) => r.sha256);
    });
  }

  /** Marks a revision's content erased (first reason kept); answers the contents it referenced. */
  async eraseRevision(assetId: string, number: number, reason: string | null): Promise<string[]> {
    return this.#scope.transaction(async (tx) => {
      await tx.db
        .updateTable('asset_revisions')
        .set({ erased_at: isoTime(tx.clock.now()), erase_reason: reason })
        .where('asset_id', '=', assetId)
        .where('number', '=', number)
        .where('erased_at', 'is', null)
        .execute();
      const files = await new AssetsRepository(tx).files(assetId, number);
      return [...new Set(files.map((f) => f.sha256))];
    });
  }

  /** Whether the revision exists and its content is not erased. */
  async contentKept(assetId: string, number: number): Promise<boolean> {
    const row = await this.#scope.db
      .selectFrom('asset_revisions')
      .select('number')
      .where('asset_id', '=', assetId)
      .where('number', '=', number)
      .where('erased_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The contents among `sha256s` that a file of some revision not erased has. */
  async referencedAmong(sha256s: readonly string[]): Promise<Set<string>> {
    const referenced = new Set<string>();
    for (const part of chunks(sha256s, VALUES_PER_LIST)) {
      const rows = await this.#scope.db
        .selectFrom('asset_files as f')
        .innerJoin('asset_revisions as r', 'r.asset_id', 'f.asset_id')
        .select('f.sha256')
        .distinct()
        .where('f.sha256', 'in', part)
        .where('r.erased_at', 'is', null)
        .whereRef('r.number', '>=', 'f.from_revision')
        .where((eb) =>
          eb.or([eb('f.to_revision', 'is', null), eb('r.number', '<', eb.ref('f.to_revision'))]),
        )
        .execute();
      for (const row of rows) referenced.add(row.sha256);
    }
    return referenced;
  }

  /** Ids of trashed assets whose state last changed at or before `time`. */
  async trashedBefore(time: string, limit = 100): Promise<string[]> {
    const rows = await this.#scope.db
      .selectFrom('assets')
      .select('id')
      .where('state', '=', 'deleted')
      .where('state_changed_at', '<=', time)
      .orderBy('state_changed_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  #now(): string {
    return isoTime(this.#scope.clock.now());
  }

  async #insertRevision(
    db: RepoScope['db'],
    assetId: string,
    number: number,
    inspection: Inspection,
    now: string,
  ): Promise<void> {
    const { verdict, media } = summaryOf(inspection);
    await db
      .insertInto('asset_revisions')
      .values({
        asset_id: assetId,
        number,
        created_at: now,
        inspection: JSON.stringify(inspection),
        verdict,
        media,
        erased_at: null,
        erase_reason: null,
      })
      .execute();
  }

  async #insertFiles(db: RepoScope['db'], assetId: string, number: number, files: FileRecord[]) {
    for (const part of chunks(files, ROWS_PER_INSERT)) {
      await db
        .insertInto('asset_files')
        .values(
          part.map((f) => ({
            asset_id: assetId,
            path: f.path,
            from_revision: number,
            to_revision: null,
            sha256: f.sha256,
            media_type: f.mediaType,
            size: f.size,
            schema_uri: f.schemaUri,
          })),
        )
        .execute();
    }
  }
}
