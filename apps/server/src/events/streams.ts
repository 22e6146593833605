import type { EventRecord, Store } from '@galley/store';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { problemOf } from '../http/problem.js';
import type { EventHub } from './hub.js';
import { ProjectAudience } from './audience.js';
import { HEARTBEAT_MS, StreamCounts, eventChunk, startEventStream, writeEvent } from './sse.js';

/** What one stream asks for. */
export interface StreamFilter {
  /** The kinds sent; every other kind is left out. */
  kinds: ReadonlySet<string>;
  /** Only this project's events (null: every project the caller can open). */
  projectId: string | null;
}

interface Subscriber {
  readonly res: Response;
  readonly accountNumber: number;
  readonly filter: StreamFilter;
  /** Whether the caller's credentials still hold. */
  readonly allowed: () => Promise<boolean>;
  /** Events held while the stored ones are replayed; null once live. */
  held: EventRecord[] | null;
  /** The last number sent (replay and live events are sent once each, in order). */
  sent: number;
  /** Sends in order, one after another, while access is checked. */
  turn: Promise<void>;
}

/** An event's stream form, made once for all subscribers. */
const chunks = new WeakMap<EventRecord, string>();

export function eventEnvelope(event: EventRecord) {
  return { id: String(event.seq), kind: event.kind, at: event.at, data: event.data };
}

function chunkOf(event: EventRecord): string {
  let chunk = chunks.get(event);
  if (chunk === undefined) {
    chunk = eventChunk(event.kind, JSON.stringify(eventEnvelope(event)), String(event.seq));
    chunks.set(event, chunk);
  }
  return chunk;
}

/**
 * The event streams `GET /api/v1/events` and `/api/v2/events`: every event of the caller's
 * projects and assets, as the hub gives them, after those stored since `Last-Event-ID`.
 */
export class EventStreams {
  readonly #hub: EventHub;
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #audience: ProjectAudience;
  readonly #counts: StreamCounts;
  readonly #subscribers = new Set<Subscriber>();
  #unlisten: (() => void) | null = null;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: { hub: EventHub; store: Store; logger: Logger; maxPerAccount: number }) {
    this.#hub = options.hub;
    this.#store = options.store;
    this.#logger = options.logger;
    this.#audience = new ProjectAudience(options.store);
    this.#counts = new StreamCounts(options.maxPerAccount);
  }

  get size(): number {
    return this.#subscribers.size;
  }

  /** Answers `res` with the stream; 429 beyond the account's most streams, 503 once stopping. */
  async open(input: {
    res: Response;
    accountNumber: number;
    filter: StreamFilter;
    /** The `Last-Event-ID` to resume after; null: from now on. */
    lastEventId: number | null;
    allowed: () => Promise<boolean>;
    head: boolean;
  }): Promise<void> {
    const { res, accountNumber } = input;
    if (this.#closed)
      throw problemOf('stopping', { detail: 'The server is stopping; connect again.' });
    await this.#hub.start();
    this.#counts.take(accountNumber);
    if (!startEventStream(res, input.head)) {
      this.#counts.give(accountNumber);
      return;
    }
    const subscriber: Subscriber = {
      res,
      accountNumber,
      filter: input.filter,
      allowed: input.allowed,
      held: input.lastEventId === null ? null : [],
      sent: input.lastEventId ?? this.#hub.delivered,
      turn: Promise.resolve(),
    };
    this.#subscribers.add(subscriber);
    res.once('close', () => {
      if (this.#subscribers.delete(subscriber)) this.#counts.give(accountNumber);
      if (this.#subscribers.size === 0) this.#stop();
    });
    this.#begin();
    if (input.lastEventId !== null) await this.#replay(subscriber, input.lastEventId);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop();
    for (const subscriber of this.#subscribers) subscriber.res.end();
  }

  #begin(): void {
    if (this.#unlisten) return;
    this.#unlisten = this.#hub.listen((event) => this.#dispatch(event));
    this.#heartbeat = setInterval(() => void this.#beat(), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  #stop(): void {
    this.#unlisten?.();
    this.#unlisten = null;
    clearInterval(this.#heartbeat);
  }

  #dispatch(event: EventRecord): void {
    this.#audience.noteChange(event);
    for (const subscriber of this.#subscribers) {
      if (subscriber.held) subscriber.held.push(event);
      else this.#offer(subscriber, event);
    }
  }

  /** Sends the events stored after `after` (or `resync` when they are gone), then the held ones. */
  async #replay(subscriber: Subscriber, after: number): Promise<void> {
    try {
      const { oldest } = await this.#store.events.bounds();
      if (oldest > after + 1) {
        writeEvent(
          subscriber.res,
          eventChunk('resync', JSON.stringify({ oldest_id: String(oldest) })),
        );
      }
      for await (const event of this.#hub.replay(after)) {
        if (subscriber.res.writableEnded) return;
        this.#offer(subscriber, event);
      }
    } catch (error) {
      this.#logger.warn({ err: error }, 'events: replay failed');
      subscriber.res.end();
      return;
    }
    const held = subscriber.held ?? [];
    subscriber.held = null;
    for (const event of held) this.#offer(subscriber, event);
  }

  /** Sends `event` to `subscriber` when it asked for it and may see it, after those before it. */
  #offer(subscriber: Subscriber, event: EventRecord): void {
    const { filter } = subscriber;
    if (!filter.kinds.has(event.kind)) return;
    if (filter.projectId !== null && event.projectId !== filter.projectId) return;
    subscriber.turn = subscriber.turn.then(async () => {
      if (event.seq <= subscriber.sent) return;
      if (!(await this.#audience.sees(subscriber.accountNumber, event))) return;
      subscriber.sent = event.seq;
      writeEvent(subscriber.res, chunkOf(event));
    });
    subscriber.turn.catch((error: unknown) => {
      this.#logger.warn({ err: error }, 'events: deciding access failed');
      subscriber.res.end();
    });
  }

  /** A comment line on every stream; a stream whose credentials no longer hold ends. */
  async #beat(): Promise<void> {
    const subscribers = [...this.#subscribers];
    for (const { res } of subscribers) if (!res.writableEnded) res.write(': heartbeat\n\n');
    this.#audience.forgetAll();
    await Promise.all(
      subscribers.map(async (subscriber) => {
        if (!(await subscriber.allowed().catch(() => true))) subscriber.res.end();
      }),
    );
  }
}
