import type { Response } from 'express';
import type { Logger } from 'pino';
import type { PageWatch, Store } from '@galley/store';
import { lockState } from '../present.js';
import { v1ProblemOf } from '../problems.js';
import type { DraftService } from './draft-service.js';
import type { EventHub } from '../../events/hub.js';
import {
  HEARTBEAT_MS,
  StreamCounts,
  eventChunk,
  startEventStream,
  writeEvent,
} from '../../events/sse.js';
import type { SavedPages } from './saved-pages.js';

/** How often a watched page is read again, for what no event tells (a lock that expired). */
const RECHECK_MS = 5_000;

interface Stream {
  readonly res: Response;
  readonly accountNumber: number;
  /** Whether the stream has been told the page's state (its first events). */
  primed: boolean;
  /** Whether the caller may still read the page (credentials and membership). */
  readonly allowed: () => Promise<boolean>;
}

/** A watched page, read once for all its streams; what they were told last. */
interface Topic {
  readonly pageId: string;
  readonly projectId: string;
  readonly streams: Set<Stream>;
  /** The `lock` event's data as last sent; null before the first read. */
  lock: string | null;
  /** The lock holder (`account client`) and its draft (`id token base`) as last read. */
  holder: string | null;
  draftKey: string | null;
  /** The `draft` event's data for the holder's draft; null when there is none. */
  draft: string | null;
  revision: number | null;
  reading: boolean;
  again: boolean;
}

export interface PageEventsOptions {
  store: Store;
  drafts: DraftService;
  pages: SavedPages;
  hub: EventHub;
  logger: Logger;
  /** Streams one account may have open at once (429 beyond). */
  maxStreamsPerAccount: number;
}

/**
 * Live read-only views of pages (`GET /pages/{page}/events`, server-sent events): the lock, the
 * lock holder's draft of the page and the project's saved revision, sent when they change. They
 * are a view of the one event source (EventHub), filtered to the page's project: each of its
 * events, from any process, has the page read again; what no event tells (a lock that expired)
 * is found by reading every watched page again every few seconds. A page is read once for all
 * its streams.
 */
export class PageEvents {
  readonly #store: Store;
  readonly #drafts: DraftService;
  readonly #pages: SavedPages;
  readonly #logger: Logger;
  readonly #counts: StreamCounts;
  readonly #topics = new Map<string, Topic>();
  readonly #unlisten: () => void;
  #timers: NodeJS.Timeout[] = [];
  #closed = false;

  constructor(options: PageEventsOptions) {
    this.#store = options.store;
    this.#drafts = options.drafts;
    this.#pages = options.pages;
    this.#logger = options.logger;
    this.#counts = new StreamCounts(options.maxStreamsPerAccount);
    this.#unlisten = options.hub.listen((event) => {
      for (const topic of this.#topics.values())
        if (topic.projectId === event.projectId) this.#read(topic);
    });
  }

  /** Streams open now. */
  get size(): number {
    let n = 0;
    for (const topic of this.#topics.values()) n += topic.streams.size;
    return n;
  }

  /**
   * Answers `res` with the page's event stream: 429 `too_many_streams` when the account has its
   * most open already, 503 `stopping` once the server stops.
   */
  open(input: {
    res: Response;
    page: { id: string; projectId: string };
    accountNumber: number;
    allowed: () => Promise<boolean>;
    head: boolean;
  }): void {
    const { res, accountNumber } = input;
    if (this.#closed)
      throw v1ProblemOf('stopping', { detail: 'The server is stopping; connect again.' });
    this.#counts.take(accountNumber);
    if (!startEventStream(res, input.head)) {
      this.#counts.give(accountNumber);
      return;
    }
    const stream: Stream = { res, accountNumber, primed: false, allowed: input.allowed };
    const topic = this.#topicOf(input.page);
    topic.streams.add(stream);
    res.once('close', () => this.#drop(topic, stream));
    this.#startTimers();
    this.#read(topic);
  }

  /** Ends every stream (their clients may connect again) and stops watching. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unlisten();
    this.#stopTimers();
    for (const topic of this.#topics.values()) for (const stream of topic.streams) stream.res.end();
  }

  #topicOf(page: { id: string; projectId: string }): Topic {
    let topic = this.#topics.get(page.id);
    if (!topic) {
      topic = {
        pageId: page.id,
        projectId: page.projectId,
        streams: new Set(),
        lock: null,
        holder: null,
        draftKey: null,
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
    this.#counts.give(stream.accountNumber);
    if (topic.streams.size === 0) this.#topics.delete(topic.pageId);
    if (this.#topics.size === 0) this.#stopTimers();
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
      for (const stream of topic.streams) stream.res.end();
      return;
    }
    const lock = JSON.stringify(lockState(watch.lock));
    const holder = watch.lock ? `${watch.lock.accountNumber} ${watch.lock.client}` : null;
    const draft = await this.#draftOf(topic, watch, holder);
    const saved = topic.revision !== null && topic.revision !== watch.revision;
    for (const stream of topic.streams) {
      if (!stream.primed) {
        this.#send(stream, 'lock', lock);
        if (draft.data !== null) this.#send(stream, 'draft', draft.data);
        stream.primed = true;
        continue;
      }
      if (lock !== topic.lock) this.#send(stream, 'lock', lock);
      if (saved) this.#send(stream, 'saved', JSON.stringify({ revision: watch.revision }));
      if (draft.changed && draft.data !== null) this.#send(stream, 'draft', draft.data);
    }
    topic.lock = lock;
    topic.holder = holder;
    topic.revision = watch.revision;
  }

  /**
   * The `draft` event's data as it now is, and whether it changed: the holder's draft with its
   * HTML; after the holder discarded it, the saved page (sequence 0, as a draft opened anew).
   */
  async #draftOf(
    topic: Topic,
    watch: PageWatch,
    holder: string | null,
  ): Promise<{ data: string | null; changed: boolean }> {
    const seen = watch.draft;
    const key = seen && `${seen.id} ${seen.token} ${seen.baseSequence}`;
    if (holder === topic.holder && key === topic.draftKey) {
      return { data: topic.draft, changed: false };
    }
    const discarded = seen === null && holder !== null && holder === topic.holder;
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

  #send(stream: Stream, event: string, data: string): void {
    writeEvent(stream.res, eventChunk(event, data));
  }

  #startTimers(): void {
    if (this.#timers.length > 0 || this.#closed) return;
    const recheck = setInterval(() => {
      for (const topic of this.#topics.values()) this.#read(topic);
    }, RECHECK_MS);
    const heartbeat = setInterval(() => void this.#heartbeat(), HEARTBEAT_MS);
    this.#timers = [recheck, heartbeat];
    for (const timer of this.#timers) timer.unref();
  }

  #stopTimers(): void {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
  }

  /** A comment line on every stream; a stream whose caller may no longer read the page ends. */
  async #heartbeat(): Promise<void> {
    const streams = [...this.#topics.values()].flatMap((topic) => [...topic.streams]);
    for (const stream of streams) {
      if (!stream.res.writableEnded) stream.res.write(': heartbeat\n\n');
    }
    await Promise.all(
      streams.map(async (stream) => {
        const allowed = await stream.allowed().catch(() => true);
        if (!allowed) stream.res.end();
      }),
    );
  }
}
