import type { EventRecord, Store } from '@galley/store';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { problemOf } from '../http/problem.js';
import type { EventHub } from './hub.js';
import { ProjectAudience } from './audience.js';
import { eventChunk } from './sse.js';
import { StreamSet } from './stream-set.js';
import type { EventStream } from './stream-set.js';

/** What one stream asks for. */
export interface StreamFilter {
  /** The kinds sent; every other kind is left out. */
  kinds: ReadonlySet<string>;
  /** Only this project's events (null: every project the caller can open). */
  projectId: string | null;
}

interface Subscriber {
  readonly stream: EventStream;
  readonly filter: StreamFilter;
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
  readonly #streams: StreamSet;
  readonly #subscribers = new Set<Subscriber>();
  #unlisten: (() => void) | null = null;

  constructor(options: { hub: EventHub; store: Store; logger: Logger; maxPerAccount: number }) {
    this.#hub = options.hub;
    this.#store = options.store;
    this.#logger = options.logger;
    this.#audience = new ProjectAudience(options.store);
    this.#streams = new StreamSet({
      maxPerAccount: options.maxPerAccount,
      stopping: () => problemOf('stopping', { detail: 'The server is stopping; connect again.' }),
      // Membership is read again at each heartbeat, as access is checked.
      onBeat: () => this.#audience.forgetAll(),
    });
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
    this.#streams.refuseIfClosed();
    await this.#hub.start();
    const stream = this.#streams.open(input);
    if (!stream) return;
    const subscriber: Subscriber = {
      stream,
      filter: input.filter,
      held: input.lastEventId === null ? null : [],
      sent: input.lastEventId ?? this.#hub.delivered,
      turn: Promise.resolve(),
    };
    this.#subscribers.add(subscriber);
    input.res.once('close', () => {
      this.#subscribers.delete(subscriber);
      if (this.#subscribers.size === 0) this.#stop();
    });
    this.#unlisten ??= this.#hub.listen((event) => this.#dispatch(event));
    if (input.lastEventId !== null) await this.#replay(subscriber, input.lastEventId);
  }

  close(): void {
    this.#stop();
    this.#streams.close();
  }

  #stop(): void {
    this.#unlisten?.();
    this.#unlisten = null;
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
    const { stream } = subscriber;
    try {
      const { oldest } = await this.#store.events.bounds();
      if (oldest > after + 1) stream.event('resync', JSON.stringify({ oldest_id: String(oldest) }));
      for await (const event of this.#hub.replay(after)) {
        if (stream.ended) return;
        this.#offer(subscriber, event);
      }
    } catch (error) {
      this.#logger.warn({ err: error }, 'events: replay failed');
      stream.end();
      return;
    }
    const held = subscriber.held ?? [];
    subscriber.held = null;
    for (const event of held) this.#offer(subscriber, event);
  }

  /** Sends `event` to `subscriber` when it asked for it and may see it, after those before it. */
  #offer(subscriber: Subscriber, event: EventRecord): void {
    const { filter, stream } = subscriber;
    if (!filter.kinds.has(event.kind)) return;
    if (filter.projectId !== null && event.projectId !== filter.projectId) return;
    subscriber.turn = subscriber.turn.then(async () => {
      if (event.seq <= subscriber.sent) return;
      if (!(await this.#audience.sees(stream.accountNumber, event))) return;
      subscriber.sent = event.seq;
      stream.write(chunkOf(event));
    });
    subscriber.turn.catch((error: unknown) => {
      this.#logger.warn({ err: error }, 'events: deciding access failed');
      stream.end();
    });
  }
}
