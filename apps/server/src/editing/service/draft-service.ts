import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Draft } from '@galley/core';
import type { DraftLog, v1 } from '@galley/core';
import type { DraftEvent, DraftRecord, LockHolder, PageAccess, Store } from '@galley/store';
import { sha256Hex } from '@galley/store';
import type { z } from 'zod';
import { draftPageJson, readsBack } from '../../pool/tasks.js';
import type { StoredDraft } from '../../pool/tasks.js';
import type { WorkPool } from '../../pool/work-pool.js';
import type { CacheStats } from '../../metrics/metrics.js';
import { operationRefused, v1ProblemOf } from '../problems.js';
import type { EditingSignals } from './editing-signals.js';
import type { FolderFiles } from './folder-files.js';
import { KeyedSerial } from './keyed-serial.js';
import { WeightedLru } from '../../weighted-lru.js';
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

/**
 * A parsed draft in memory, current as of `token` and `base` (the draft record's `baseSequence`,
 * after which its events are the undo stack). Both must match the store's: a save in another
 * process keeps the token but folds the events into a new base.
 */
export interface LiveDraft {
  draft: Draft;
  token: string;
  base: number;
  /** Bytes of the HTML the draft was rebuilt from (its base, or its newest snapshot). */
  pageBytes: number;
  /**
   * Operations in effect that memory can no longer undo: the draft was rebuilt from a snapshot
   * with this many in effect, or forgot them once its snapshot was stored. Undoing past them
   * rebuilds the draft from an older snapshot, or its base.
   */
  floor: number;
  /** The snapshot being taken, and the fewest operations in effect since it was asked for. */
  snapshotting: { seq: number; applied: number; low: number } | null;
}

/** A GET draft answer: its token, and the whole answer as JSON text. */
export interface DraftView {
  token: string;
  json: Buffer;
}

/**
 * Rough bytes a parsed page holds per byte of HTML, plus a fixed overhead; and what its history
 * adds, which undo keeps in memory: per operation held, per element and per character of text
 * the operations created (see `Draft.createdContent`).
 */
const WEIGHT_PER_HTML_BYTE = 8;
const WEIGHT_BASE = 4096;
const WEIGHT_PER_CHANGE = 1024;
const WEIGHT_PER_CREATED_ELEMENT = 640;
const WEIGHT_PER_CREATED_CHARACTER = 4;

/**
 * Operations held in memory before the draft's page is snapshotted and they are forgotten: a
 * draft rebuilt from the store replays at most about this many (twice as many while a snapshot
 * is being taken), whatever its length.
 */
const SNAPSHOT_EVERY = 128;

/** Times an undo or redo runs again when requests in other processes keep moving the draft. */
const MOVE_ATTEMPTS = 5;

const staleToken = () =>
  v1ProblemOf('stale_draft_token', {
    detail: 'This draft token is not the newest one; GET the draft again.',
  });

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
  readonly #signals: EditingSignals;
  readonly #pool: WorkPool;
  readonly #cache: WeightedLru<string, LiveDraft>;
  /** Rebuilds under way, by draft and token: a second request waits for the first's. */
  readonly #rebuilding = new Map<string, Promise<LiveDraft>>();
  readonly #serial = new KeyedSerial();
  #hits = 0;
  #misses = 0;

  constructor(options: {
    store: Store;
    states: RevisionStates;
    files: FolderFiles;
    signals: EditingSignals;
    pool: WorkPool;
    cacheBytes: number;
  }) {
    this.#pool = options.pool;
    this.#store = options.store;
    this.#states = options.states;
    this.#files = options.files;
    this.#signals = options.signals;
    this.#cache = new WeightedLru(options.cacheBytes);
  }

  /** The estimated bytes of the parsed drafts kept in memory (never more than the bound). */
  get heldBytes(): number {
    return this.#cache.weight;
  }

  /** The memory of parsed drafts, for the metrics: reads from it, rebuilds, evictions. */
  get cacheStats(): CacheStats {
    const cache = this.#cache;
    const [hits, misses] = [this.#hits, this.#misses];
    return { entries: cache.size, bytes: cache.weight, hits, misses, evictions: cache.evictions };
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
      const html = await this.#html(entry.sha256);
      const opened = await this.#parse({ html, log: emptyLog });
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
        const live = this.#liveOf(row, opened.draft, { html, floor: 0 });
        this.#remember(row.id, live);
        this.#signals.changed(access.project.id, {
          kind: 'draft.changed',
          data: { page_id: access.page.id, action: 'opened' },
        });
      }
    }
    const [live, page] = await this.#liveWithPage(row);
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
    if (read && isCurrent(this.#cache.get(read.id), read)) return read;
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
        live = await this.#rebuild(row, live.floor); // past the snapshot it was rebuilt from
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
    this.#cache.delete(row.id);
    if (await this.#store.drafts.discard(row.id)) {
      const data = { page_id: access.page.id, action: 'discarded' } as const;
      this.#signals.changed(access.project.id, { kind: 'draft.changed', data });
    }
  }

  /** The parsed draft for `row`, rebuilt from the store when memory has none at its token. */
  async live(row: DraftRecord): Promise<LiveDraft> {
    const cached = this.#cache.get(row.id);
    if (cached && isCurrent(cached, row)) {
      this.#hits += 1;
      return cached;
    }
    this.#misses += 1;
    return this.#rebuild(row);
  }

  /**
   * The draft for `row` rebuilt from the store (with `below`, from a snapshot with fewer
   * operations in effect), and kept in memory. A large page is read and replayed a piece at a
   * time, letting other requests run between pieces.
   */
  #rebuild(row: DraftRecord, below?: number): Promise<LiveDraft> {
    const key = `${row.id} ${row.token} ${row.baseSequence} ${below ?? ''}`;
    let rebuilding = this.#rebuilding.get(key);
    if (!rebuilding) {
      rebuilding = this.#stored(row, below).then((stored) => this.#rebuildFrom(row, stored));
      this.#rebuilding.set(key, rebuilding);
      const done = () => void this.#rebuilding.delete(key);
      rebuilding.then(done, done);
    }
    return rebuilding;
  }

  async #rebuildFrom(row: DraftRecord, stored: Stored): Promise<LiveDraft> {
    const rebuilt = await this.#parse(stored);
    if (!rebuilt.ok) {
      // A log this engine no longer replays (one written under other rules): the draft cannot be
      // continued, only discarded; the saved versions are not affected.
      throw v1ProblemOf('draft_unusable', {
        detail: `This draft cannot be rebuilt (${rebuilt.errors[0]?.code ?? 'invalid_log'}); discard it with DELETE /pages/{page}/draft and open a new one.`,
      });
    }
    const live = this.#liveOf(row, rebuilt.draft, stored);
    this.#remember(row.id, live);
    return live;
  }

  /** The stored page `row` continues from (its newest usable snapshot, or its base) and the log after it. */
  async #stored(row: DraftRecord, below?: number): Promise<Stored> {
    const restore = await this.#store.draftSnapshots.restore(row, below ? { below } : {});
    const { snapshot, operations, applied } = restore;
    return {
      html: snapshot?.html ?? (await this.#html(row.baseSha256)),
      log: { format: 1, operations, applied, sequence: row.sequence } as DraftLog,
      floor: snapshot?.applied ?? 0,
    };
  }

  /** Rebuilds a stored draft: on a large page a piece at a time (see Draft.rebuildGradually). */
  #parse(stored: StoredDraft) {
    return this.#pool.offloads(stored.html.length)
      ? Draft.rebuildGradually(stored.html, stored.log, () => nextTurn())
      : Draft.rebuild(stored.html, stored.log);
  }

  #liveOf(row: DraftRecord, draft: Draft, from: { html: string; floor: number }): LiveDraft {
    const { token, baseSequence: base } = row;
    return {
      draft,
      token,
      base,
      pageBytes: from.html.length,
      floor: from.floor,
      snapshotting: null,
    };
  }

  /**
   * The live draft for `row` and the page members of its GET answer (see `draftPageJson`): for a
   * large page built in the pool from the store, while memory rebuilds the draft (if it must).
   */
  async #liveWithPage(row: DraftRecord): Promise<[LiveDraft, Uint8Array]> {
    const cached = this.#cache.get(row.id);
    if (cached && isCurrent(cached, row) && !this.#pool.offloads(cached.pageBytes)) {
      return [cached, draftPageJson(cached.draft)];
    }
    const stored = await this.#stored(row);
    const size = stored.html.length;
    const page = this.#pool.run('draftPage', { html: stored.html, log: stored.log }, { size });
    // Both settle before either is used: a refused rebuild is the answer, never a stray rejection.
    const [live, json] = await Promise.allSettled([this.live(row), page]);
    if (live.status === 'rejected') throw live.reason;
    if (json.status === 'rejected') throw json.reason;
    return [live.value, json.value];
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
      const live = this.#liveOf(rebasedRow, reopened.draft, { html: reopened.saved, floor: 0 });
      this.#remember(row.id, live);
    } else {
      this.#cache.delete(row.id);
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
      if (!written) this.#cache.delete(row.id);
    }
    if (written) {
      live.token = event.token;
      this.#remember(row.id, live); // weighed again: the history grew
      if (event.kind === 'operation') this.#snapshotIfDue(row, live);
      this.#signals.changed(row.projectId, {
        kind: 'draft.changed',
        data: { page_id: row.pageId, action: event.kind },
      });
    }
    return written;
  }

  /**
   * Once memory holds SNAPSHOT_EVERY operations (and nothing to redo), stores the draft's page as
   * event `row.sequence + 1` left it, in the background, then forgets those operations: they are
   * in the snapshot, and an undo past it rebuilds from an older one. A failed or refused
   * snapshot (a page whose text reads back as another tree) only leaves the operations held.
   */
  #snapshotIfDue(row: DraftRecord, live: LiveDraft): void {
    const { draft } = live;
    if (live.snapshotting || draft.canRedo || draft.undoable < SNAPSHOT_EVERY) return;
    const point = { seq: row.sequence + 1, applied: applied(live) };
    live.snapshotting = { ...point, low: point.applied };
    const at = { ...row, sequence: point.seq };
    // Below the threshold the page is read from memory now, as the event left it.
    const html = this.#pool.offloads(live.pageBytes)
      ? this.#stored(at).then((stored) =>
          this.#pool.run('snapshot', stored, { size: stored.html.length }),
        )
      : Promise.resolve(pageIfReadsBack(draft.html()));
    void html
      .then(async (page) => {
        if (page === null) return;
        await this.#store.draftSnapshots.keep(row.id, { ...point, html: page });
        if (this.#cache.get(row.id) !== live || live.base !== row.baseSequence) return;
        if (live.snapshotting!.low < point.applied) return; // undone below it meanwhile
        live.draft.forgetOldest(point.applied - live.floor);
        live.floor = point.applied;
        live.pageBytes = page.length;
        this.#remember(row.id, live);
      })
      .catch(() => undefined) // the events stay the record: a rebuild only replays more
      .finally(() => (live.snapshotting = null));
  }

  #remember(id: string, live: LiveDraft): void {
    const { draft, pageBytes } = live;
    const created = draft.createdContent;
    const weight =
      WEIGHT_BASE +
      pageBytes * WEIGHT_PER_HTML_BYTE +
      draft.heldChanges * WEIGHT_PER_CHANGE +
      created.elements * WEIGHT_PER_CREATED_ELEMENT +
      created.characters * WEIGHT_PER_CREATED_CHARACTER;
    this.#cache.set(id, live, weight);
  }

  /** Whether the draft's project was deleted (its drafts went with it) while a request ran. */
  async #projectGone(access: PageAccess): Promise<boolean> {
    return (await this.#store.projects.find(access.project.id)) === null;
  }

  async #html(sha256: string): Promise<string> {
    return new TextDecoder().decode(await this.#files.file(sha256));
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

type Stored = StoredDraft & { floor: number };

const emptyLog: DraftLog = { format: 1, operations: [], applied: 0, sequence: 0 };

/** Operations in effect: those memory can undo and those below them (see `LiveDraft.floor`). */
function applied(live: LiveDraft): number {
  return live.floor + live.draft.undoable;
}

function canUndo(live: LiveDraft): boolean {
  return live.draft.canUndo || live.floor > 0;
}

function pageIfReadsBack(html: string): string | null {
  return readsBack(html) ? html : null;
}

/** Whether memory holds the draft as the store's `row` has it (same token, same base). */
function isCurrent(live: LiveDraft | undefined, row: DraftRecord): boolean {
  return live !== undefined && live.token === row.token && live.base === row.baseSequence;
}

/** 122 random bits; randomUUID draws from a pooled entropy buffer, cheap on every operation. */
function newToken(): string {
  return `dt_${randomUUID().replaceAll('-', '')}`;
}

function withOutline(answer: OperationAnswer, outline: boolean | undefined, draft: Draft) {
  return outline ? { ...answer, outline: draft.outline() as OperationAnswer['outline'] } : answer;
}
