import type { Logger } from 'pino';
import type { v1 } from '@galley/core';
import type { LockRecord, PageWatch as WatchedPage, Store } from '@galley/store';
import type { EventHub } from '../../events/hub.js';
import { lockState } from '../present.js';
import type { DraftService } from './draft-service.js';
import type { SavedPages } from './saved-pages.js';

/** How often a watched page is read again, for what no event tells (a lock that expired). */
const RECHECK_MS = 5_000;

/** Someone watching a page: told its events (`lock`, `draft`, `saved`) as they happen. */
export interface PageWatcher {
  event(name: string, data: string): void;
  /** The page is gone (its project was deleted): nothing more will come. */
  end(): void;
}

interface Stream {
  readonly watcher: PageWatcher;
  /** Whether the watcher has been told the page's state (its first events). */
  primed: boolean;
}

/** A watched page, read once for all its streams; what they were told last. */
interface Topic {
  readonly pageId: string;
  readonly projectId: string;
  readonly streams: Set<Stream>;
  /** The `lock` event's data as last sent; null before the first read. */
  lock: string | null;
  /** The lock and the holder's draft (`id token base`) as last read. */
  held: LockRecord | null;
  draftKey: string | null;
  /** Who let the lock go with unsaved changes, while it stays free. */
  leftUnsaved: string | null;
  /** The `draft` event's data for the holder's draft; null when there is none. */
  draft: string | null;
  revision: number | null;
  reading: boolean;
  again: boolean;
}

/**
 * Live read-only views of pages (`GET /pages/{page}/events`): the lock, the lock holder's draft
 * of the page and the project's saved revision, told when they change. They are a view of the
 * one event source (EventHub), filtered to the page's project: each of its events, from any
 * process, has the page read again; what no event tells (a lock that expired) is found by
 * reading every watched page again every few seconds. A page is read once for all its watchers.
 */
export class PageEvents {
  readonly #store: Store;
  readonly #drafts: DraftService;
  readonly #pages: SavedPages;
  readonly #logger: Logger;
  readonly #topics = new Map<string, Topic>();
  readonly #unlisten: () => void;
  #recheck: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: {
    store: Store;
    drafts: DraftService;
    pages: SavedPages;
    hub: EventHub;
    logger: Logger;
  }) {
    this.#store = options.store;
    this.#drafts = options.drafts;
    this.#pages = options.pages;
    this.#logger = options.logger;
    this.#unlisten = options.hub.listen((event) => {
      for (const topic of this.#topics.values())
        if (topic.projectId === event.projectId) this.#read(topic);
    });
  }

  /** Tells `watcher` the page's state, then each change; until the returned function is called. */
  watch(page: { id: string; projectId: string }, watcher: PageWatcher): () => void {
    const stream: Stream = { watcher, primed: false };
    const topic = this.#topicOf(page);
    topic.streams.add(stream);
    if (!this.#recheck && !this.#closed) {
      this.#recheck = setInterval(() => {
        for (const watched of this.#topics.values()) this.#read(watched);
      }, RECHECK_MS);
      this.#recheck.unref();
    }
    this.#read(topic);
    return () => this.#drop(topic, stream);
  }

  /** Stops watching (the watchers' streams are ended where they were opened). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unlisten();
    this.#stopRecheck();
  }

  #topicOf(page: { id: string; projectId: string }): Topic {
    let topic = this.#topics.get(page.id);
    if (!topic) {
      topic = {
        pageId: page.id,
        projectId: page.projectId,
        streams: new Set(),
        lock: null,
        held: null,
        draftKey: null,
        leftUnsaved: null,
        draft: null,
        revision: null,
        reading: false,
        again: false,
      };
      this.#topics.set(page.id, topic);
    }
    return topic;
  }

  #drop(topic: Topic, stream: Stream): void {
    if (!topic.streams.delete(stream)) return;
    if (topic.streams.size === 0) this.#topics.delete(topic.pageId);
    if (this.#topics.size === 0) this.#stopRecheck();
  }

  #stopRecheck(): void {
    clearInterval(this.#recheck);
    this.#recheck = undefined;
  }

  /** Reads the topic's page again now, or once more after the read under way. */
  #read(topic: Topic): void {
    if (topic.reading) {
      topic.again = true;
      return;
    }
    topic.reading = true;
    void (async () => {
      do {
        topic.again = false;
        try {
          await this.#update(topic);
        } catch (error) {
          // Storage out for a moment: the streams stay, and the next read tries again.
          this.#logger.warn({ err: error, page: topic.pageId }, 'page events: read failed');
        }
      } while (topic.again && !this.#closed && topic.streams.size > 0);
      topic.reading = false;
    })();
  }

  async #update(topic: Topic): Promise<void> {
    const watch = await this.#store.drafts.watch(topic.pageId);
    if (!watch) {
      // The page's project was deleted.
      for (const stream of topic.streams) stream.watcher.end();
      return;
    }
    const lock = JSON.stringify(await this.#lockEvent(topic, watch));
    const draft = await this.#draftOf(topic, watch);
    const saved = topic.revision !== null && topic.revision !== watch.revision;
    for (const stream of topic.streams) {
      if (!stream.primed) {
        stream.watcher.event('lock', lock);
        if (draft.data !== null) stream.watcher.event('draft', draft.data);
        stream.primed = true;
        continue;
      }
      if (lock !== topic.lock) stream.watcher.event('lock', lock);
      if (saved) stream.watcher.event('saved', JSON.stringify({ revision: watch.revision }));
      if (draft.changed && draft.data !== null) stream.watcher.event('draft', draft.data);
    }
    topic.lock = lock;
    topic.held = watch.lock;
    topic.revision = watch.revision;
  }

  /**
   * The `lock` event's data: the lock in force; once its holder let it go (or it expired) with
   * unsaved changes in a draft of the project, that holder's name too, until the lock is taken.
   */
  async #lockEvent(topic: Topic, watch: WatchedPage): Promise<v1.LockEventData> {
    const state = lockState(watch.lock);
    const gone = topic.held;
    if (watch.lock) topic.leftUnsaved = null;
    else if (gone) {
      const left = await this.#store.drafts.leftUnsaved(watch.projectId, gone);
      topic.leftUnsaved = left ? gone.holderName : null;
    }
    return topic.leftUnsaved === null
      ? state
      : { ...state, left_unsaved: { name: topic.leftUnsaved } };
  }

  /**
   * The `draft` event's data as it now is, and whether it changed: the holder's draft with its
   * HTML; after the holder discarded it, the saved page (sequence 0, as a draft opened anew).
   */
  async #draftOf(
    topic: Topic,
    watch: WatchedPage,
  ): Promise<{ data: string | null; changed: boolean }> {
    const seen = watch.draft;
    const key = seen && `${seen.id} ${seen.token} ${seen.baseSequence}`;
    const holder = holderKey(watch.lock);
    const sameHolder = holder === holderKey(topic.held);
    if (sameHolder && key === topic.draftKey) return { data: topic.draft, changed: false };
    const discarded = seen === null && holder !== null && sameHolder;
    let data: string | null = null;
    topic.draftKey = key;
    if (seen && watch.lock) {
      const now = await this.#drafts.current(seen).catch((error: unknown) => {
        // A draft that can no longer be rebuilt shows nothing until it changes.
        this.#logger.debug({ err: error, page: topic.pageId }, 'page events: draft unreadable');
        return null;
      });
      if (now) {
        topic.draftKey = `${now.row.id} ${now.row.token} ${now.row.baseSequence}`;
        data = JSON.stringify({
          sequence: now.row.sequence,
          base_revision: now.row.baseRevision,
          html: now.html,
          by: { name: watch.lock.holderName },
        });
      }
    } else if (discarded && watch.lock) {
      const html = await this.#pages.html({
        projectId: watch.projectId,
        current: watch.revision,
        revision: watch.revision,
        file: watch.file,
      });
      if (html !== null) {
        const by = { name: watch.lock.holderName };
        data = JSON.stringify({ sequence: 0, base_revision: watch.revision, html, by });
      }
    }
    // Only a draft shown now is remembered for streams that connect later.
    topic.draft = seen ? data : null;
    return { data, changed: true };
  }
}

/** Who holds a lock (`account client`), to tell one holder from another. */
function holderKey(lock: LockRecord | null): string | null {
  return lock && `${lock.accountNumber} ${lock.client}`;
}
