import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EventRecord, NewEvent, Store } from '@galley/store';
import { listenForEvents } from '@galley/store';
import type { Logger } from 'pino';

/** How often SQLite's events table is read for events other processes stored. */
const POLL_MS = 200;
/** Events read at once when catching up. */
const PAGE = 500;
/** How long events are kept (the resumption window and webhook replays). */
export const EVENT_RETENTION_MS = 7 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;
/** Events stored in one transaction at most (see `publish`). */
const BATCH = 500;

export type EventListener = (event: EventRecord) => void;

export interface EventHubOptions {
  store: Store;
  logger: Logger;
  /** PostgreSQL URL to LISTEN on; null on SQLite, where the table is polled instead. */
  databaseUrl: string | null;
  /**
   * Called when this process queued webhook deliveries with events it stored (the dispatcher
   * then looks for them at once; another process's are found by that process, or its poll).
   */
  onDeliveries?: () => void;
}

/**
 * The one source of events in a process. `publish` stores an event (numbered in commit order
 * across processes); listeners get every stored event once, in number order, whichever process
 * stored it: this process's at once, others' on PostgreSQL's NOTIFY or, on SQLite, within
 * POLL_MS. Publishing never fails its caller: a storage error is logged and the event is lost.
 */
export class EventHub {
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #databaseUrl: string | null;
  readonly #listeners = new Set<EventListener>();
  readonly #onDeliveries: (() => void) | undefined;
  /** The number of the newest event given to listeners. */
  #delivered = 0;
  #started: Promise<void> | null = null;
  /** Events published and not yet stored, oldest first, each with its publisher's resolve. */
  #queue: Array<{ event: NewEvent; stored: () => void }> = [];
  /** The storing of the queue, while it runs. */
  #storing: Promise<void> | null = null;
  #catchingUp = false;
  #again = false;
  #stopListening: (() => Promise<void>) | null = null;
  #timers: NodeJS.Timeout[] = [];
  #closed = false;

  constructor(options: EventHubOptions) {
    this.#store = options.store;
    this.#logger = options.logger;
    this.#databaseUrl = options.databaseUrl;
    this.#onDeliveries = options.onDeliveries;
  }

  /** The number of the newest event given to listeners (events up to it can be replayed). */
  get delivered(): number {
    return this.#delivered;
  }

  /** Starts following the table (once; later calls return the same promise). */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    this.#delivered = (await this.#store.events.bounds()).newest;
    const onError = (error: unknown) =>
      this.#logger.warn({ err: error }, 'events: listening connection failed');
    if (this.#databaseUrl) {
      this.#stopListening = await listenForEvents(
        this.#databaseUrl,
        () => this.#catchUp(),
        onError,
      );
    } else {
      this.#timers.push(setInterval(() => this.#catchUp(), POLL_MS));
    }
    const prune = setInterval(() => void this.#prune(), PRUNE_EVERY_MS);
    this.#timers.push(prune);
    for (const timer of this.#timers) timer.unref();
  }

  /**
   * Stores `event` after those published before it by this process; resolves once listeners
   * have it. Events published meanwhile are stored together, in one transaction: one commit (a
   * flush to disk) for each batch instead of each event, so a service answering thousands of
   * operations a second neither queues events without bound nor spends its thread flushing.
   */
  publish(event: NewEvent): Promise<void> {
    const stored = new Promise<void>((resolve) => this.#queue.push({ event, stored: resolve }));
    this.#storing ??= this.#storeQueue().finally(() => (this.#storing = null));
    return stored;
  }

  /** Stores the queue a batch at a time, letting the requests of one turn publish first. */
  async #storeQueue(): Promise<void> {
    while (this.#queue.length > 0) {
      await nextTurn();
      const batch = this.#queue.splice(0, BATCH);
      try {
        if (this.#closed) continue;
        await this.start();
        const { records, deliveries } = await this.#store.events.appendAll(
          batch.map(({ event }) => event),
        );
        if (deliveries > 0) this.#onDeliveries?.();
        // Next after the last given: no other process's event in between to read first.
        if (records[0]!.seq === this.#delivered + 1 && !this.#catchingUp) this.#give(records);
        else this.#catchUp();
      } catch (error) {
        const kinds = batch.map(({ event }) => event.kind);
        this.#logger.warn({ err: error, kinds }, 'events: storing events failed');
      } finally {
        for (const { stored } of batch) stored();
      }
    }
  }

  /** Calls `listener` with every event from now on; returns the function that stops it. */
  listen(listener: EventListener): () => void {
    this.#listeners.add(listener);
    void this.start().catch((error: unknown) => {
      this.#logger.error({ err: error }, 'events: starting failed');
    });
    return () => this.#listeners.delete(listener);
  }

  /** Stored events after `seq` up to the newest given to listeners, oldest first. */
  async *replay(seq: number): AsyncGenerator<EventRecord> {
    let from = seq;
    const until = this.#delivered;
    while (from < until) {
      const page = await this.#store.events.after(from, PAGE);
      for (const event of page) {
        if (event.seq > until) return;
        yield event;
      }
      if (page.length < PAGE) return;
      from = page.at(-1)!.seq;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    await this.#storing;
    await this.#stopListening?.();
    this.#listeners.clear();
  }

  #give(events: EventRecord[]): void {
    for (const event of events) {
      if (event.seq <= this.#delivered) continue;
      this.#delivered = event.seq;
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          this.#logger.error({ err: error, kind: event.kind }, 'events: a listener failed');
        }
      }
    }
  }

  /** Reads and gives the events stored after the last given, now or once more after the read under way. */
  #catchUp(): void {
    if (this.#closed || this.#started === null) return;
    if (this.#catchingUp) {
      this.#again = true;
      return;
    }
    this.#catchingUp = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          let page: EventRecord[];
          do {
            page = await this.#store.events.after(this.#delivered, PAGE);
            this.#give(page);
          } while (page.length === PAGE && !this.#closed);
        } while (this.#again && !this.#closed);
      } catch (error) {
        this.#logger.warn({ err: error }, 'events: reading new events failed');
      } finally {
        this.#catchingUp = false;
      }
    })();
  }

  async #prune(): Promise<void> {
    try {
      await this.#store.events.prune(
        new Date(this.#store.clock.now().getTime() - EVENT_RETENTION_MS),
      );
    } catch (error) {
      this.#logger.warn({ err: error }, 'events: pruning failed');
    }
  }
}
