import { isUniqueViolation } from '../errors.js';
import { newId } from '../ids.js';
import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';
import type { LockHolder } from './locks-repository.js';
import { relaxedTransaction } from './relaxed.js';
import type { DraftsTable } from './tables.js';

export interface DraftRecord {
  id: string;
  pageId: string;
  projectId: string;
  accountNumber: number;
  client: string;
  baseRevision: number;
  baseSha256: string;
  token: string;
  applied: number;
  sequence: number;
  lastFingerprint: string | null;
  lastAnswer: unknown;
  createdAt: string;
}

function toDraft(row: DraftsTable): DraftRecord {
  return {
    id: row.id,
    pageId: row.page_id,
    projectId: row.project_id,
    accountNumber: row.account_number,
    client: row.client,
    baseRevision: row.base_revision,
    baseSha256: row.base_sha256,
    token: row.token,
    applied: row.applied,
    sequence: row.sequence,
    lastFingerprint: row.last_fingerprint,
    lastAnswer: row.last_answer === null ? null : (JSON.parse(row.last_answer) as unknown),
    createdAt: row.created_at,
  };
}

/** A change to an open draft, accepted only while `expectedToken` is still its newest token. */
export interface DraftStep {
  draftId: string;
  expectedToken: string;
  token: string;
  applied: number;
  sequence: number;
}

/**
 * Open drafts: one per (page, account, client), stored as the base revision plus the log of
 * operations, so a restarted server rebuilds them. Every change is a compare-and-set on the
 * newest token: of two requests carrying the same token, one wins.
 */
export class DraftsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  async find(pageId: string, holder: LockHolder): Promise<DraftRecord | null> {
    const row = await this.#scope.db
      .selectFrom('drafts')
      .selectAll()
      .where('page_id', '=', pageId)
      .where('account_number', '=', holder.accountNumber)
      .where('client', '=', holder.client)
      .executeTakeFirst();
    return row ? toDraft(row) : null;
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
    const now = isoTime(this.#scope.clock.now());
    const row: DraftsTable = {
      id: newId('dft'),
      page_id: input.pageId,
      project_id: input.projectId,
      account_number: input.holder.accountNumber,
      client: input.holder.client,
      base_revision: input.baseRevision,
      base_sha256: input.baseSha256,
      token: input.token,
      applied: 0,
      sequence: 0,
      last_fingerprint: null,
      last_answer: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.#scope.db.insertInto('drafts').values(row).execute();
      return toDraft(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.find(input.pageId, input.holder);
      if (!existing) throw error;
      return existing;
    }
  }

  /** The logged operations (JSON values), oldest first: applied ones, then redoable ones. */
  async operations(draftId: string): Promise<unknown[]> {
    const rows = await this.#scope.db
      .selectFrom('draft_operations')
      .select('operation')
      .where('draft_id', '=', draftId)
      .orderBy('seq')
      .execute();
    return rows.map((row) => JSON.parse(row.operation) as unknown);
  }

  /**
   * Logs a new operation at position `step.applied - 1` (dropping what was redoable) and moves
   * the token. False when the token moved meanwhile. Not flushed to disk: see relaxed.ts.
   */
  async recordOperation(
    step: DraftStep & { operation: unknown; fingerprint: string; answer: unknown },
  ): Promise<boolean> {
    return relaxedTransaction(this.#scope, async (tx) => {
      if (!(await this.#moveToken(tx, step, step.fingerprint, step.answer))) return false;
      const seq = step.applied - 1;
      await tx.db
        .deleteFrom('draft_operations')
        .where('draft_id', '=', step.draftId)
        .where('seq', '>=', seq)
        .execute();
      await tx.db
        .insertInto('draft_operations')
        .values({ draft_id: step.draftId, seq, operation: JSON.stringify(step.operation) })
        .execute();
      return true;
    });
  }

  /** An undo or redo: only the count of operations in effect and the token move. */
  async recordMove(step: DraftStep): Promise<boolean> {
    return relaxedTransaction(this.#scope, (tx) => this.#moveToken(tx, step, null, null));
  }

  /** After a save: the draft continues on the new base with an empty log; its token stays. */
  async rebase(input: {
    draftId: string;
    baseRevision: number;
    baseSha256: string;
  }): Promise<void> {
    await this.#scope.db
      .deleteFrom('draft_operations')
      .where('draft_id', '=', input.draftId)
      .execute();
    await this.#scope.db
      .updateTable('drafts')
      .set({
        base_revision: input.baseRevision,
        base_sha256: input.baseSha256,
        applied: 0,
        sequence: 0,
        updated_at: isoTime(this.#scope.clock.now()),
      })
      .where('id', '=', input.draftId)
      .execute();
  }

  async discard(draftId: string): Promise<boolean> {
    const result = await this.#scope.db
      .deleteFrom('drafts')
      .where('id', '=', draftId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async #moveToken(
    tx: RepoScope,
    step: DraftStep,
    fingerprint: string | null,
    answer: unknown,
  ): Promise<boolean> {
    const result = await tx.db
      .updateTable('drafts')
      .set({
        token: step.token,
        applied: step.applied,
        sequence: step.sequence,
        last_fingerprint: fingerprint,
        last_answer: answer === null ? null : JSON.stringify(answer),
        updated_at: isoTime(tx.clock.now()),
      })
      .where('id', '=', step.draftId)
      .where('token', '=', step.expectedToken)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
