import { setImmediate as nextTurn } from 'node:timers/promises';
import { Draft } from '@galley/core';
import type { DraftLog } from '@galley/core';
import type { DraftRecord, Store } from '@galley/store';
import type { CacheStats } from '../../metrics/metrics.js';
import { draftPageJson, readsBack } from '../../pool/tasks.js';
import type { StoredDraft } from '../../pool/tasks.js';
import type { WorkPool } from '../../pool/work-pool.js';
import { WeightedLru } from '../../weighted-lru.js';
import { v1ProblemOf } from '../problems.js';
import type { FolderFiles } from './folder-files.js';

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

/**
 * Page texts decoded from the byte store, by SHA-256, kept while they weigh (two bytes a
 * character) at most this much: opening a large draft reads its base twice at once (the draft
 * memory keeps, and the answer a worker writes), and decoding 2 MB takes about 10 ms of the
 * event loop each time.
 */
const DECODED_PAGE_BYTES = 16 * 1024 * 1024;

/**
 * The parsed drafts in memory, bounded by their estimated bytes (least recently used leave
 * first), so an operation is applied to a live document and never waits on re-parsing. A draft
 * missing from memory (evicted, restarted, or changed by another process) is rebuilt from the
 * store: from its newest snapshot, and the operations after it.
 */
export class LiveDrafts {
  readonly #store: Store;
  readonly #files: FolderFiles;
  readonly #pool: WorkPool;
  readonly #cache: WeightedLru<string, LiveDraft>;
  readonly #decoded = new WeightedLru<string, string>(DECODED_PAGE_BYTES);
  /** Rebuilds under way, by draft and token: a second request waits for the first's. */
  readonly #rebuilding = new Map<string, Promise<LiveDraft>>();
  #hits = 0;
  #misses = 0;

  constructor(options: { store: Store; files: FolderFiles; pool: WorkPool; cacheBytes: number }) {
    this.#store = options.store;
    this.#files = options.files;
    this.#pool = options.pool;
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

  /** Whether memory holds the draft as the store's `row` has it (same token, same base). */
  holds(row: DraftRecord): boolean {
    return isCurrent(this.#cache.get(row.id), row);
  }

  /** Keeps `draft`, parsed from `html` (its base, or a page just saved), as `row`'s. */
  opened(row: DraftRecord, draft: Draft, html: string): LiveDraft {
    const live = this.#liveOf(row, draft, { html, floor: 0 });
    this.remember(row.id, live);
    return live;
  }

  forget(id: string): void {
    this.#cache.delete(id);
  }

  /** The parsed draft for `row`, rebuilt from the store when memory has none at its token. */
  async live(row: DraftRecord): Promise<LiveDraft> {
    const cached = this.#cache.get(row.id);
    if (cached && isCurrent(cached, row)) {
      this.#hits += 1;
      return cached;
    }
    this.#misses += 1;
    return this.rebuild(row);
  }

  /**
   * The draft for `row` rebuilt from the store (with `below`, from a snapshot with fewer
   * operations in effect), and kept in memory. A large page is read and replayed a piece at a
   * time, letting other requests run between pieces.
   */
  rebuild(row: DraftRecord, below?: number): Promise<LiveDraft> {
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
    const rebuilt = await this.parse(stored);
    if (!rebuilt.ok) {
      // A log this engine no longer replays (one written under other rules): the draft cannot be
      // continued, only discarded; the saved versions are not affected.
      throw v1ProblemOf('draft_unusable', {
        detail: `This draft cannot be rebuilt (${rebuilt.errors[0]?.code ?? 'invalid_log'}); discard it with DELETE /pages/{page}/draft and open a new one.`,
      });
    }
    const live = this.#liveOf(row, rebuilt.draft, stored);
    this.remember(row.id, live);
    return live;
  }

  /** The stored page `row` continues from (its newest usable snapshot, or its base) and the log after it. */
  async #stored(row: DraftRecord, below?: number): Promise<Stored> {
    const restore = await this.#store.draftSnapshots.restore(row, below ? { below } : {});
    const { snapshot, operations, applied } = restore;
    return {
      html: snapshot?.html ?? (await this.html(row.baseSha256)),
      log: { format: 1, operations, applied, sequence: row.sequence } as DraftLog,
      floor: snapshot?.applied ?? 0,
    };
  }

  /** Rebuilds a stored draft: on a large page a piece at a time (see Draft.rebuildGradually). */
  parse(stored: StoredDraft) {
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
  async liveWithPage(row: DraftRecord): Promise<[LiveDraft, Uint8Array]> {
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
   * Once memory holds SNAPSHOT_EVERY operations (and nothing to redo), stores the draft's page as
   * event `row.sequence + 1` left it, in the background, then forgets those operations: they are
   * in the snapshot, and an undo past it rebuilds from an older one. A failed or refused
   * snapshot (a page whose text reads back as another tree) only leaves the operations held.
   */
  snapshotIfDue(row: DraftRecord, live: LiveDraft): void {
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
        this.remember(row.id, live);
      })
      .catch(() => undefined) // the events stay the record: a rebuild only replays more
      .finally(() => (live.snapshotting = null));
  }

  remember(id: string, live: LiveDraft): void {
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

  async html(sha256: string): Promise<string> {
    let html = this.#decoded.get(sha256);
    if (html === undefined) {
      html = new TextDecoder().decode(await this.#files.file(sha256));
      this.#decoded.set(sha256, html, html.length * 2);
    }
    return html;
  }
}

type Stored = StoredDraft & { floor: number };

/** Operations in effect: those memory can undo and those below them (see `LiveDraft.floor`). */
export function applied(live: LiveDraft): number {
  return live.floor + live.draft.undoable;
}

export function canUndo(live: LiveDraft): boolean {
  return live.draft.canUndo || live.floor > 0;
}

function pageIfReadsBack(html: string): string | null {
  return readsBack(html) ? html : null;
}

/** Whether memory holds the draft as the store's `row` has it (same token, same base). */
function isCurrent(live: LiveDraft | undefined, row: DraftRecord): boolean {
  return live !== undefined && live.token === row.token && live.base === row.baseSequence;
}
