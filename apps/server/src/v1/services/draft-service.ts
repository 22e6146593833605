import { Draft } from '@galley/core';
import type { DraftError, DraftLog, v1 } from '@galley/core';
import type { Store } from '@galley/store';
import { randomSecret, sha256Hex } from '@galley/store';
import type { z } from 'zod';
import { HttpProblem } from '../../http/problem.js';
import { v1Problem } from '../problems.js';
import type { DraftRecord, LockHolder, PageAccess } from '../store-types.js';
import type { FolderFiles } from './folder-files.js';
import { KeyedSerial } from './keyed-serial.js';
import { WeightedLru } from './lru.js';
import type { RevisionStates } from './revision-states.js';

type DraftAnswer = z.output<typeof v1.DraftAnswer>;
type OperationAnswer = z.output<typeof v1.OperationAnswer>;
type OperationRequest = z.output<typeof v1.OperationRequest>;

/** A parsed draft in memory, current as of `token`. */
export interface LiveDraft {
  draft: Draft;
  token: string;
}

/** Rough bytes a parsed page holds per byte of HTML, plus a fixed overhead. */
const WEIGHT_PER_HTML_BYTE = 8;
const WEIGHT_BASE = 4096;

const staleToken = () =>
  v1Problem('stale_draft_token', 'This draft token is not the newest one; GET the draft again.');

/**
 * Open drafts: the store keeps the base and the operation log; this keeps the parsed drafts in
 * a memory-bounded LRU, so an operation is applied to a live document and never waits on
 * re-parsing. A draft missing from memory (evicted, restarted, or changed by another process)
 * is rebuilt from the store.
 */
export class DraftService {
  readonly #store: Store;
  readonly #states: RevisionStates;
  readonly #files: FolderFiles;
  readonly #cache: WeightedLru<string, LiveDraft>;
  readonly serial = new KeyedSerial();

  constructor(options: {
    store: Store;
    states: RevisionStates;
    files: FolderFiles;
    cacheBytes: number;
  }) {
    this.#store = options.store;
    this.#states = options.states;
    this.#files = options.files;
    this.#cache = new WeightedLru(options.cacheBytes);
  }

  /** Runs `task` alone among the requests on the caller's draft of this page. */
  exclusive<T>(access: PageAccess, holder: LockHolder, task: () => Promise<T>): Promise<T> {
    return this.serial.run(`${access.page.id} ${holder.accountNumber} ${holder.client}`, task);
  }

  /** GET draft: the open draft, opened on the current revision when there is none. */
  async open(access: PageAccess, holder: LockHolder): Promise<DraftAnswer> {
    let row = await this.#store.drafts.find(access.page.id, holder);
    if (!row) {
      const state = await this.#states.get(access.project.id, access.project.revision);
      const entry = state.manifest.get(access.page.file)!;
      const html = await this.#html(entry.sha256);
      const opened = Draft.open(html);
      if (!opened.ok) throw refused(opened.errors);
      const token = newToken();
      row = await this.#store.drafts.open({
        pageId: access.page.id,
        projectId: access.project.id,
        holder,
        baseRevision: state.revision,
        baseSha256: entry.sha256,
        token,
      });
      if (row.token === token) this.#remember(row.id, { draft: opened.draft, token }, html);
    }
    const { draft } = await this.live(row);
    return {
      page: access.page,
      draft_token: row.token,
      base_revision: row.baseRevision,
      html: draft.html(),
      outline: draft.outline() as DraftAnswer['outline'],
      can_undo: draft.canUndo,
      can_redo: draft.canRedo,
    };
  }

  /** The caller's open draft, or 409 `stale_draft_token` for a token with no draft behind it. */
  async row(access: PageAccess, holder: LockHolder): Promise<DraftRecord> {
    const row = await this.#store.drafts.find(access.page.id, holder);
    if (!row) throw staleToken();
    return row;
  }

  async operate(
    access: PageAccess,
    holder: LockHolder,
    body: OperationRequest,
  ): Promise<OperationAnswer> {
    const row = await this.row(access, holder);
    const fingerprint = sha256Hex(JSON.stringify(['operation', access.page.id, body]));
    if (body.draft_token !== row.token) {
      // The exact request that produced the newest token, sent again: the same answer again.
      if (row.lastFingerprint !== fingerprint || row.lastAnswer === null) throw staleToken();
      const live = await this.live(row);
      return withOutline(row.lastAnswer as OperationAnswer, body.outline, live.draft);
    }
    const live = await this.live(row);
    const applied = live.draft.apply(body.operation);
    if (!applied.ok) throw refused(applied.errors);
    const answer = this.#answer(live.draft, applied.result);
    await this.#commit(row, live, answer.draft_token, row.applied + 1, (step) =>
      this.#store.drafts.recordOperation({
        ...step,
        operation: body.operation,
        fingerprint,
        answer,
      }),
    );
    return withOutline(answer, body.outline, live.draft);
  }

  /** Draft undo or redo: 409 `nothing_to_undo`/`nothing_to_redo` when there is none. */
  async move(
    access: PageAccess,
    holder: LockHolder,
    direction: 'undo' | 'redo',
  ): Promise<OperationAnswer> {
    const row = await this.row(access, holder);
    const live = await this.live(row);
    const moved = direction === 'undo' ? live.draft.undo() : live.draft.redo();
    if (!moved.ok) {
      throw v1Problem(
        direction === 'undo' ? 'nothing_to_undo' : 'nothing_to_redo',
        `The draft has no operation to ${direction}.`,
      );
    }
    const answer = this.#answer(live.draft, moved.result);
    const applied = row.applied + (direction === 'undo' ? -1 : 1);
    await this.#commit(row, live, answer.draft_token, applied, (step) =>
      this.#store.drafts.recordMove(step),
    );
    return answer;
  }

  async discard(access: PageAccess, holder: LockHolder): Promise<void> {
    const row = await this.#store.drafts.find(access.page.id, holder);
    if (!row) return;
    this.#cache.delete(row.id);
    await this.#store.drafts.discard(row.id);
  }

  /** The parsed draft for `row`, rebuilt from the store when memory has none at its token. */
  async live(row: DraftRecord): Promise<LiveDraft> {
    const cached = this.#cache.get(row.id);
    if (cached && cached.token === row.token) return cached;
    const html = await this.#html(row.baseSha256);
    const log = {
      format: 1,
      operations: await this.#store.drafts.operations(row.id),
      applied: row.applied,
      sequence: row.sequence,
    } as DraftLog;
    const rebuilt = Draft.rebuild(html, log);
    if (!rebuilt.ok)
      throw new Error(`draft ${row.id} does not rebuild: ${rebuilt.errors[0]?.code}`);
    const live = { draft: rebuilt.draft, token: row.token };
    this.#remember(row.id, live, html);
    return live;
  }

  /** After a save: the same token, a fresh draft on the saved page (empty undo stack). */
  rebased(row: DraftRecord, html: string): void {
    const opened = Draft.open(html);
    if (opened.ok) this.#remember(row.id, { draft: opened.draft, token: row.token }, html);
    else this.#cache.delete(row.id);
  }

  #answer(draft: Draft, result: OperationAnswer['result']): OperationAnswer {
    return { draft_token: newToken(), result, can_undo: draft.canUndo, can_redo: draft.canRedo };
  }

  /** Stores the step; memory moves to the new token only once the store has it. */
  async #commit(
    row: DraftRecord,
    live: LiveDraft,
    token: string,
    applied: number,
    write: (step: {
      draftId: string;
      expectedToken: string;
      token: string;
      applied: number;
      sequence: number;
    }) => Promise<boolean>,
  ): Promise<void> {
    let written = false;
    try {
      written = await write({
        draftId: row.id,
        expectedToken: row.token,
        token,
        applied,
        sequence: live.draft.sequence,
      });
    } finally {
      if (!written) this.#cache.delete(row.id);
    }
    if (!written) throw staleToken();
    live.token = token;
  }

  #remember(id: string, live: LiveDraft, html: string): void {
    this.#cache.set(id, live, html.length * WEIGHT_PER_HTML_BYTE + WEIGHT_BASE);
  }

  async #html(sha256: string): Promise<string> {
    return new TextDecoder().decode(await this.#files.file(sha256));
  }
}

function newToken(): string {
  return `dt_${randomSecret(18)}`;
}

function withOutline(answer: OperationAnswer, outline: boolean | undefined, draft: Draft) {
  return outline ? { ...answer, outline: draft.outline() as OperationAnswer['outline'] } : answer;
}

/** A refused operation: 422 with `errors` by request field; nothing changed. */
export function refused(errors: readonly DraftError[]): HttpProblem {
  const byField: Record<string, string[]> = {};
  for (const error of errors) (byField[error.field ?? ''] ??= []).push(error.message);
  return new HttpProblem({
    status: 422,
    code: errors[0]?.code ?? 'invalid_operation',
    title: 'Operation refused',
    detail: errors.map((e) => e.message).join(' '),
    extras: { errors: byField },
  });
}
