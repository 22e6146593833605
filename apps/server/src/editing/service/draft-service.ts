import { randomUUID } from 'node:crypto';
import { Draft } from '@galley/core';
import type { DraftLog, v1 } from '@galley/core';
import type { DraftEvent, DraftRecord, LockHolder, PageAccess, Store } from '@galley/store';
import { sha256Hex } from '@galley/store';
import type { z } from 'zod';
import type { CacheStats } from '../../metrics/metrics.js';
import type { WorkPool } from '../../pool/work-pool.js';
import { operationRefused, v1ProblemOf } from '../problems.js';
import type { EditingSignals } from './editing-signals.js';
import { KeyedSerial } from './keyed-serial.js';
import { LiveDrafts, applied, canUndo } from './live-drafts.js';
import type { LiveDraft } from './live-drafts.js';
import type { EditingParts } from './parts.js';
import type { RevisionStates } from './revision-states.js';

type OperationAnswer = z.output<typeof v1.OperationAnswer>;
type OperationRequest = z.output<typeof v1.OperationRequest>;

/** What a save stores, and the draft that continues on it (see `DraftService.reopen`). */
export interface Reopened {
  /** The page text to store; `asWritten` when it is the base page's own text. */
  saved: string;
  asWritten: boolean;
  draft: Draft | null;
  token: string;
}

/** A GET draft answer: its token, and the whole answer as JSON text. */
export interface DraftView {
  token: string;
  json: Buffer;
}

/** Times an undo or redo runs again when requests in other processes keep moving the draft. */
const MOVE_ATTEMPTS = 5;

const staleToken = () =>
  v1ProblemOf('stale_draft_token', {
    detail: 'This draft token is not the newest one; GET the draft again.',
  });

/**
 * Open drafts: the store keeps the base and the operation log, memory the parsed drafts
 * (LiveDrafts). Each request on a draft runs in its turn (`exclusive`); across processes the
 * store's compare-and-set on the draft token decides.
 */
export class DraftService {
  readonly #memory: LiveDrafts;
  readonly #serial = new KeyedSerial();
  readonly #store: Store;
  readonly #states: RevisionStates;
  readonly #signals: EditingSignals;

  constructor(options: EditingParts & { pool: WorkPool; cacheBytes: number }) {
    this.#store = options.store;
    this.#states = options.states;
    this.#signals = options.signals;
    this.#memory = new LiveDrafts(options);
  }

  /** The estimated bytes of the parsed drafts kept in memory (never more than the bound). */
  get heldBytes(): number {
    return this.#memory.heldBytes;
  }

  /** The memory of parsed drafts, for the metrics: reads from it, rebuilds, evictions. */
  get cacheStats(): CacheStats {
    return this.#memory.cacheStats;
  }

  /** Runs `task` alone among the requests on the caller's draft of this page. */
  exclusive<T>(access: PageAccess, holder: LockHolder, task: () => Promise<T>): Promise<T> {
    return this.#serial.run(turnOf(access.page.id, holder), task);
  }

  /**
   * A draft as it is now, for someone watching it (its own holder's requests aside): read again
   * in the draft's turn, so never older than `seen`, with its HTML. Null when it is gone.
   */
  current(seen: DraftRecord): Promise<{ row: DraftRecord; html: string } | null> {
    return this.#serial.run(turnOf(seen.pageId, seen), async () => {
      const row = await this.#store.drafts.find(seen.pageId, seen);
      return row && { row, html: (await this.live(row)).draft.html() };
    });
  }

  /** The operations in effect (applied, not undone) of `row`, oldest first. */
  async operationsInEffect(row: DraftRecord): Promise<unknown[]> {
    const { operations, applied } = await this.#store.drafts.log(row);
    return operations.slice(0, applied);
  }

  /** GET draft: the open draft, opened on the current revision when there is none. */
  async open(access: PageAccess, holder: LockHolder, read: DraftRecord | null): Promise<DraftView> {
    let row = await this.newest(access, holder, read);
    if (!row) {
      const state = await this.#states.get(access.project.id, access.project.revision);
      const entry = state.manifest.get(access.page.file)!;
      const html = await this.#memory.html(entry.sha256);
      const opened = await this.#memory.parse({ html, log: emptyLog });
      if (!opened.ok) throw operationRefused(opened.errors);
      const token = newToken();
      row = await this.#store.drafts.open({
        pageId: access.page.id,
        projectId: access.project.id,
        holder,
        baseRevision: state.revision,
        baseSha256: entry.sha256,
        token,
      });
      if (row.token === token) {
        this.#memory.opened(row, opened.draft, html);
        this.#signals.changed(access.project.id, {
          kind: 'draft.changed',
          data: { page_id: access.page.id, action: 'opened' },
        });
      }
    }
    const [live, page] = await this.#memory.liveWithPage(row);
    const members = JSON.stringify({
      page: access.page,
      draft_token: row.token,
      base_revision: row.baseRevision,
    });
    const flags = `"can_undo":${canUndo(live)},"can_redo":${live.draft.canRedo}}`;
    const json = Buffer.concat([
      Buffer.from(`${members.slice(0, -1)},`),
      page,
      Buffer.from(`,${flags}`),
    ]);
    return { token: row.token, json };
  }

  /**
   * The caller's draft as it is now. `read` came with the request; when memory holds a newer
   * token (a request queued on this draft changed it meanwhile) it is read again.
   */
  async newest(
    access: PageAccess,
    holder: LockHolder,
    read: DraftRecord | null,
  ): Promise<DraftRecord | null> {
    if (read && this.#memory.holds(read)) return read;
    return this.#store.drafts.find(access.page.id, holder);
  }

  /** The caller's open draft, or 409 `stale_draft_token` for a token with no draft behind it. */
  async row(
    access: PageAccess,
    holder: LockHolder,
    read: DraftRecord | null,
  ): Promise<DraftRecord> {
    const row = await this.newest(access, holder, read);
    if (!row) throw staleToken();
    return row;
  }

  async operate(
    access: PageAccess,
    holder: LockHolder,
    read: DraftRecord | null,
    body: OperationRequest,
  ): Promise<OperationAnswer> {
    const row = await this.row(access, holder, read);
    const fingerprint = sha256Hex(JSON.stringify(['operation', access.page.id, body]));
    if (body.draft_token !== row.token) return this.#replay(row, fingerprint, body.outline);
    const live = await this.live(row);
    const applied = live.draft.apply(body.operation);
    if (!applied.ok) throw operationRefused(applied.errors);
    const answer = this.#answer(live, applied.result);
    const written = await this.#append(row, live, {
      kind: 'operation',
      token: answer.draft_token,
      operation: body.operation,
      fingerprint,
      answer,
      canUndo: answer.can_undo,
    });
    if (!written) {
      // Another request took the next event first. When that was this very request (sent to
      // another process as well), its answer is this one's too, on the draft it left.
      const now = await this.#store.drafts.find(access.page.id, holder);
      if (!now) throw (await this.#projectGone(access)) ? projectGone() : staleToken();
      return this.#replay(now, fingerprint, body.outline);
    }
    return withOutline(answer, body.outline, live.draft);
  }

  /**
   * Draft undo or redo: 409 `nothing_to_undo`/`nothing_to_redo` when there is none. Neither
   * names a token: each undoes (redoes) the newest step of the draft as it is when it runs. So
   * when a request in another process moved the draft first (two undos sent to two processes
   * at once), it runs again on the draft as that one left it, just as the second of two undos
   * does on one process: two undos undo two steps, and the second may find nothing to undo.
   */
  async move(
    access: PageAccess,
    holder: LockHolder,
    read: DraftRecord | null,
    direction: 'undo' | 'redo',
  ): Promise<OperationAnswer> {
    let row = await this.newest(access, holder, read);
    for (let attempt = 1; ; attempt++) {
      if (!row) throw nothingTo(direction);
      let live = await this.live(row);
      if (direction === 'undo' && !live.draft.canUndo && live.floor > 0) {
        live = await this.#memory.rebuild(row, live.floor); // past the snapshot it was rebuilt from
      }
      const moved = direction === 'undo' ? live.draft.undo() : live.draft.redo();
      if (!moved.ok) throw nothingTo(direction);
      const { snapshotting } = live;
      if (snapshotting) snapshotting.low = Math.min(snapshotting.low, applied(live));
      const answer = this.#answer(live, moved.result);
      const event = { kind: direction, token: answer.draft_token, canUndo: answer.can_undo };
      if (await this.#append(row, live, event)) {
        return answer;
      }
      if (attempt === MOVE_ATTEMPTS) throw staleToken();
      row = await this.#store.drafts.find(access.page.id, holder);
      if (!row && (await this.#projectGone(access))) throw projectGone();
    }
  }

  async discard(access: PageAccess, holder: LockHolder, read: DraftRecord | null): Promise<void> {
    const row = await this.newest(access, holder, read);
    if (!row) return;
    this.#memory.forget(row.id);
    if (await this.#store.drafts.discard(row.id)) {
      const data = { page_id: access.page.id, action: 'discarded' } as const;
      this.#signals.changed(access.project.id, { kind: 'draft.changed', data });
    }
  }

  /** The parsed draft for `row` (see LiveDrafts.live). */
  live(row: DraftRecord): Promise<LiveDraft> {
    return this.#memory.live(row);
  }

  /**
   * Before a save: the text to store and the draft that continues on it, with its token.
   * - Edits that came to nothing (the base page reads as the very draft): the base text, as it
   *   was written (byte-order mark, attribute quotes, omitted tags), and the same token.
   * - Otherwise the draft's own text, read back. The token stays unless it reads back as another
   *   tree (markup HTML cannot hold, such as a <div> inside a <p>, moves on reading): then `@n`
   *   read with the old token would name other elements, so the draft gets a new one.
   */
  reopen(row: DraftRecord, base: string, edited: string): Reopened {
    const reread = Draft.open(base);
    if (reread.ok && reread.draft.html() === edited) {
      return { saved: base, asWritten: true, draft: reread.draft, token: row.token };
    }
    const opened = Draft.open(edited);
    const same = opened.ok && opened.draft.html() === edited;
    return {
      saved: edited,
      asWritten: false,
      draft: opened.ok ? opened.draft : null,
      token: same ? row.token : newToken(),
    };
  }

  /** After a save: the draft `reopen` prepared, with its empty undo stack, is the live one. */
  rebased(row: DraftRecord, reopened: Reopened): void {
    if (reopened.draft) {
      // The store folded the events up to `sequence` into the new base (DraftsRepository.rebase).
      const rebasedRow = { ...row, token: reopened.token, baseSequence: row.sequence };
      this.#memory.opened(rebasedRow, reopened.draft, reopened.saved);
    } else {
      this.#memory.forget(row.id);
    }
  }

  /**
   * The answer again for the exact request (by `fingerprint`) that produced `row`'s newest token:
   * a resend, or the same request sent to another process at once. Any other: 409 stale.
   */
  async #replay(
    row: DraftRecord,
    fingerprint: string,
    outline: boolean | undefined,
  ): Promise<OperationAnswer> {
    if (row.lastFingerprint !== fingerprint || row.lastAnswer === null) throw staleToken();
    const live = await this.live(row);
    return withOutline(row.lastAnswer as OperationAnswer, outline, live.draft);
  }

  #answer(live: LiveDraft, result: OperationAnswer['result']): OperationAnswer {
    const { canRedo } = live.draft;
    return { draft_token: newToken(), result, can_undo: canUndo(live), can_redo: canRedo };
  }

  /**
   * Stores the event; memory moves to the new token only once the store has it. False when
   * another request took the event's number first: memory, which has applied a change the store
   * does not have, is dropped, so the draft is read again at the winner's token.
   */
  async #append(row: DraftRecord, live: LiveDraft, event: DraftEvent): Promise<boolean> {
    let written = false;
    try {
      written = await this.#store.drafts.append(row, event);
    } finally {
      if (!written) this.#memory.forget(row.id);
    }
    if (written) {
      live.token = event.token;
      this.#memory.remember(row.id, live); // weighed again: the history grew
      if (event.kind === 'operation') this.#memory.snapshotIfDue(row, live);
      this.#signals.changed(
        row.projectId,
        { kind: 'draft.changed', data: { page_id: row.pageId, action: event.kind } },
        { relaxed: true },
      );
    }
    return written;
  }

  /** Whether the draft's project was deleted (its drafts went with it) while a request ran. */
  async #projectGone(access: PageAccess): Promise<boolean> {
    return (await this.#store.projects.find(access.project.id)) === null;
  }
}

const projectGone = () =>
  v1ProblemOf('not_found', { detail: 'The project was deleted meanwhile.' });

const nothingTo = (direction: 'undo' | 'redo') =>
  v1ProblemOf(direction === 'undo' ? 'nothing_to_undo' : 'nothing_to_redo', {
    detail: `The draft has no operation to ${direction}.`,
  });

/** The key of a draft's turn (see `exclusive`): page, account and client. */
function turnOf(pageId: string, holder: LockHolder): string {
  return `${pageId} ${holder.accountNumber} ${holder.client}`;
}

const emptyLog: DraftLog = { format: 1, operations: [], applied: 0, sequence: 0 };

/** 122 random bits; randomUUID draws from a pooled entropy buffer, cheap on every operation. */
function newToken(): string {
  return `dt_${randomUUID().replaceAll('-', '')}`;
}

function withOutline(answer: OperationAnswer, outline: boolean | undefined, draft: Draft) {
  return outline ? { ...answer, outline: draft.outline() as OperationAnswer['outline'] } : answer;
}
