import { sql } from 'kysely';
import { isForeignKeyViolation, isUniqueViolation } from '../errors.js';
import { newId } from '../ids.js';
import { deleteRowByKey } from '../rows.js';
import type { RepoScope } from '../scope.js';
import type { OwnWrite, StampedCache } from '../stamped-cache.js';
import { isoTime } from '../time.js';
import { draftLogOf, latestEventJoin } from './draft-events.js';
import type { DraftLogRecord, EventKind } from './draft-events.js';
import { DRAFT_COLUMNS, toDraft, toLock } from './draft-records.js';
import type { DraftColumns, DraftRecord, LockColumns, LockRow } from './draft-records.js';
import type { LockHolder, LockRecord } from './locks-repository.js';
import type { PageAccess, ProjectRole } from './projects-repository.js';
import { toProject } from './projects-repository.js';
import type { ProjectMembersTable, ProjectsTable } from './tables.js';
import { relaxedWrite } from '../relaxed.js';

/**
 * A draft's newest event (`e`) leaves an operation in effect: it came after the base, and its undo
 * stack is not empty (events written before that was recorded count when they are operations).
 */
const operationInEffect = sql`e.seq > d.base_seq
  and coalesce(e.can_undo, case when e.kind = 'operation' then 1 else 0 end) = 1`;

/** Everything a page-editing request decides on, read at once. */
export interface EditingContext {
  access: PageAccess;
  /** The lock in force on the page's project, whoever holds it. */
  lock: LockRecord | null;
  /** The caller's open draft of the page (none without a client). */
  draft: DraftRecord | null;
}

/** The next event of a draft (numbered `sequence + 1` of the draft record it was decided on). */
export interface DraftEvent {
  kind: EventKind;
  token: string;
  operation?: unknown;
  fingerprint?: string;
  answer?: unknown;
  /** Whether the draft has an operation to undo after this event (its undo stack). */
  canUndo?: boolean;
}

/** A page's newest open draft with an operation in effect: who, on which base, since when. */
export interface UnsavedDraft {
  byName: string;
  baseRevision: number;
  updatedAt: string;
}

/**
 * What a live view of a page follows: the project's revision, the lock in force, and the lock
 * holder's open draft of the page (null without a lock or a draft).
 */
export interface PageWatch {
  projectId: string;
  revision: number;
  file: string;
  lock: LockRecord | null;
  draft: DraftRecord | null;
}

type EditingRow = ProjectsTable &
  Pick<ProjectMembersTable, 'role'> & { file: string } & LockColumns &
  DraftColumns;

/** What a drafts repository remembers with, shared by every scope of a store (`projectCaches`). */
export interface DraftReads {
  /** The answers of `editing`, by page, account and client. */
  editing: StampedCache<EditingContext | null>;
  /** The domain's other reads, which no draft's event changes: they absorb its write. */
  unmoved: readonly { absorb(write: OwnWrite): void }[];
}

/**
 * Open drafts: one per (page, account, client), stored as the base revision plus an append-only
 * log of events, so a restarted server rebuilds them. Appending event n + 1 is the compare-and-
 * set on the newest token: of two requests carrying the same token, one wins.
 */
export class DraftsRepository {
  readonly #scope: RepoScope;
  readonly #reads: DraftReads;

  constructor(scope: RepoScope, reads: DraftReads) {
    this.#scope = scope;
    this.#reads = reads;
  }

  async find(pageId: string, holder: LockHolder): Promise<DraftRecord | null> {
    const { rows } = await sql<DraftColumns>`select ${DRAFT_COLUMNS}
      from drafts d ${latestEventJoin}
      where d.page_id = ${pageId} and d.account_number = ${holder.accountNumber}
        and d.client = ${holder.client}`.execute(this.#scope.db);
    const row = rows[0];
    return row ? toDraft(row, pageId, holder) : null;
  }

  /**
   * One read for a page-editing request: the page with its project and the account's role, the
   * lock in force, and the draft of (page, account, client) with its newest event. Null when the
   * page is absent or the account is not a member. Remembered until the database changes (see
   * `projectCaches`); whether the lock is still in force is judged on every call.
   */
  async editing(
    pageId: string,
    accountNumber: number,
    client: string | null,
  ): Promise<EditingContext | null> {
    const reads = this.#scope.db.isTransaction ? undefined : this.#reads.editing;
    const key = editingKey({ pageId, accountNumber, client });
    const seen = reads?.lookup(key);
    let context = seen?.value;
    if (context === undefined) {
      context = await this.#readEditing(pageId, accountNumber, client);
      reads?.remember(key, context, seen?.since);
    }
    const now = isoTime(this.#scope.clock.now());
    return context?.lock && context.lock.expiresAt <= now ? { ...context, lock: null } : context;
  }

  /**
   * The read behind `editing`, with the project's lock whatever its expiry. Written as SQL text
   * (portable): building it with the builder costs about ten times as much as running it.
   */
  async #readEditing(
    pageId: string,
    accountNumber: number,
    client: string | null,
  ): Promise<EditingContext | null> {
    const { rows } = await sql<EditingRow>`
      select pg.file, p.id, p.title, p.media_id, p.media_version, p.page_count, p.revision,
        p.created_at, p.updated_at, m.role,
        l.account_number as lock_account, l.client as lock_client, l.kind as lock_kind,
        l.label as lock_label, l.acquired_at as lock_acquired_at,
        l.expires_at as lock_expires_at, a.name as lock_holder, ${DRAFT_COLUMNS}
      from project_pages pg
      join projects p on p.id = pg.project_id
      join project_members m on m.project_id = p.id and m.account_number = ${accountNumber}
      left join project_locks l on l.project_id = p.id
      left join accounts a on a.account_number = l.account_number
      left join drafts d on d.page_id = pg.id and d.account_number = ${accountNumber}
        and d.client = ${client ?? ''}
      ${latestEventJoin}
      where pg.id = ${pageId}`.execute(this.#scope.db);
    const row = rows[0];
    if (!row) return null;
    return {
      access: {
        project: toProject(row),
        role: row.role as ProjectRole,
        page: { id: pageId, file: row.file },
      },
      lock: toLock(row),
      draft: client === null ? null : toDraft(row, pageId, { accountNumber, client }),
    };
  }

  /** Opens a draft, or returns the one that a concurrent request opened first. */
  async open(input: {
    pageId: string;
    projectId: string;
    holder: LockHolder;
    baseRevision: number;
    baseSha256: string;
    token: string;
  }): Promise<DraftRecord> {
    const row = {
      id: newId('dft'),
      page_id: input.pageId,
      project_id: input.projectId,
      account_number: input.holder.accountNumber,
      client: input.holder.client,
      base_revision: input.baseRevision,
      base_sha256: input.baseSha256,
      token: input.token,
      base_seq: 0,
      created_at: isoTime(this.#scope.clock.now()),
    };
    try {
      await this.#scope.db.insertInto('drafts').values(row).execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.find(input.pageId, input.holder);
      if (!existing) throw error;
      return existing;
    }
    return (await this.find(input.pageId, input.holder))!;
  }

  /**
   * What the events after the base amount to, up to `sequence`: the operations in effect, then
   * redoable ones. Events another process appended after `draft` was read are not included, so
   * the log is the draft's as of `draft.token`.
   */
  async log(draft: Pick<DraftRecord, 'id' | 'baseSequence' | 'sequence'>): Promise<DraftLogRecord> {
    const rows = await this.#scope.db
      .selectFrom('draft_events')
      .select(['seq', 'kind', 'operation'])
      .where('draft_id', '=', draft.id)
      .where('seq', '>', draft.baseSequence)
      .where('seq', '<=', draft.sequence)
      .orderBy('seq')
      .execute();
    const { operations, applied } = draftLogOf(rows);
    return { operations, applied };
  }

  /**
   * Appends the next event of `draft` (as read); false when that number is taken (the token
   * moved meanwhile) or the draft is gone (discarded, or its project deleted). One statement, atomic alone; not flushed to disk before it returns (see
   * relaxed.ts). The remembered editing read of the draft moves on with it.
   */
  async append(draft: DraftRecord, event: DraftEvent): Promise<boolean> {
    const seq = draft.sequence + 1;
    const answer = event.answer === undefined ? null : JSON.stringify(event.answer);
    const fingerprint = event.fingerprint ?? null;
    const moved = (entries: Map<string, EditingContext | null>) => {
      const key = editingKey(draft);
      const context = entries.get(key);
      if (context?.draft?.id !== draft.id || context.draft.sequence !== draft.sequence) {
        entries.delete(key);
        return;
      }
      // As the store now reads it back: the answer is the stored JSON's, not the caller's object.
      const lastAnswer = answer === null ? null : (JSON.parse(answer) as unknown);
      const { token } = event;
      const lastFingerprint = fingerprint;
      const draftNow = { ...context.draft, token, sequence: seq, lastFingerprint, lastAnswer };
      entries.set(key, { ...context, draft: draftNow });
    };
    try {
      await relaxedWrite(
        this.#scope,
        sql`insert into draft_events
            (draft_id, seq, kind, operation, token, fingerprint, answer, at, can_undo)
          values (${draft.id}, ${seq}, ${event.kind},
            ${event.operation === undefined ? null : JSON.stringify(event.operation)},
            ${event.token}, ${fingerprint}, ${answer}, ${isoTime(this.#scope.clock.now())},
            ${event.canUndo === undefined ? null : Number(event.canUndo)})`.compile(this.#scope.db),
        (rowsWritten) => {
          const write = { rowsWritten, rows: 1 };
          for (const reads of this.#reads.unmoved) reads.absorb(write);
          // Of the editing reads, a draft's event changes only the draft's own.
          this.#reads.editing.absorb(write, moved);
        },
      );
      return true;
    } catch (error) {
      // Another request took the event's number, or ended the draft (deleted it, its page or its
      // project) meanwhile: either way this event is not the draft's next one.
      if (isUniqueViolation(error) || isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  /**
   * After a save: the draft continues on the new base with an empty undo stack. Its events so far
   * are folded into the base (and its snapshots dropped); the newest stays as a tombstone carrying the token and its number
   * (and the request that made it, for an exact retry). With a `newToken` (the saved page reads
   * back as another tree, so the old token's `@n` would name other elements), the tombstone
   * carries that token instead, and no retry of the old request.
   */
  async rebase(input: {
    draft: Pick<DraftRecord, 'id' | 'sequence' | 'token'>;
    baseRevision: number;
    baseSha256: string;
    newToken?: string;
  }): Promise<void> {
    const { id, sequence } = input.draft;
    const token = input.newToken ?? input.draft.token;
    await sql`delete from draft_snapshots where draft_id = ${id}`.execute(this.#scope.db);
    await this.#scope.db
      .deleteFrom('draft_events')
      .where('draft_id', '=', id)
      .where('seq', '<', sequence)
      .execute();
    if (input.newToken !== undefined) {
      await this.#scope.db
        .updateTable('draft_events')
        .set({ token, fingerprint: null, answer: null })
        .where('draft_id', '=', id)
        .where('seq', '=', sequence)
        .execute();
    }
    await this.#scope.db
      .updateTable('drafts')
      .set({
        base_revision: input.baseRevision,
        base_sha256: input.baseSha256,
        base_seq: sequence,
        token,
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Of each page in `pageIds` (of one project), the most recently changed open draft whose undo
   * stack is not empty (its newest event after the base left an operation in effect), in one
   * read. A draft with no event since its base (just opened, or just saved) has none. Events
   * written before this was recorded count as in effect when they are operations.
   */
  async unsaved(projectId: string, pageIds: readonly string[]): Promise<Map<string, UnsavedDraft>> {
    const found = new Map<string, UnsavedDraft>();
    if (pageIds.length === 0) return found;
    const { rows } = await sql<{
      page_id: string;
      base_revision: number;
      name: string;
      updated_at: string;
    }>`select d.page_id, d.base_revision, a.name, coalesce(e.at, d.created_at) as updated_at
      from drafts d
      join accounts a on a.account_number = d.account_number
      ${latestEventJoin}
      where d.project_id = ${projectId}
        and d.page_id in (${sql.join([...new Set(pageIds)])})
        and ${operationInEffect}
      order by updated_at desc, d.id`.execute(this.#scope.db);
    for (const row of rows) {
      if (found.has(row.page_id)) continue;
      found.set(row.page_id, {
        byName: row.name,
        baseRevision: row.base_revision,
        updatedAt: row.updated_at,
      });
    }
    return found;
  }

  /**
   * Whether `holder` has an open draft of a page of the project with an operation in effect (as
   * `unsaved` counts them): what a client that lets the lock go leaves behind.
   */
  async leftUnsaved(projectId: string, holder: LockHolder): Promise<boolean> {
    const { rows } = await sql<{ one: number }>`select 1 as one
      from drafts d ${latestEventJoin}
      where d.project_id = ${projectId} and d.account_number = ${holder.accountNumber}
        and d.client = ${holder.client} and ${operationInEffect}
      limit 1`.execute(this.#scope.db);
    return rows.length > 0;
  }

  /** The page's project revision, its lock in force and the holder's draft of it, in one read. */
  async watch(pageId: string): Promise<PageWatch | null> {
    const now = isoTime(this.#scope.clock.now());
    const { rows } = await sql<LockRow & DraftColumns & { revision: number; file: string }>`
      select p.id, p.revision, pg.file,
        l.account_number as lock_account, l.client as lock_client, l.kind as lock_kind,
        l.label as lock_label, l.acquired_at as lock_acquired_at,
        l.expires_at as lock_expires_at, a.name as lock_holder, ${DRAFT_COLUMNS}
      from project_pages pg
      join projects p on p.id = pg.project_id
      left join project_locks l on l.project_id = p.id and l.expires_at > ${now}
      left join accounts a on a.account_number = l.account_number
      left join drafts d on d.page_id = pg.id and d.account_number = l.account_number
        and d.client = l.client
      ${latestEventJoin}
      where pg.id = ${pageId}`.execute(this.#scope.db);
    const row = rows[0];
    if (!row) return null;
    const lock = toLock(row);
    return {
      projectId: row.id,
      revision: row.revision,
      file: row.file,
      lock,
      draft: lock ? toDraft(row, pageId, lock) : null,
    };
  }

  async discard(draftId: string): Promise<boolean> {
    return deleteRowByKey(this.#scope.db, 'drafts', 'id', draftId);
  }
}

/** The key of an editing read: page, account and client (none: a read with no draft). */
function editingKey(of: { pageId: string; accountNumber: number; client: string | null }): string {
  return `${of.pageId} ${of.accountNumber} ${of.client === null ? '-' : `+${of.client}`}`;
}
