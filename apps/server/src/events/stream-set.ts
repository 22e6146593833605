import type { Response } from 'express';
import type { HttpProblem } from '../http/problem.js';
import { HEARTBEAT_MS, StreamCounts, eventChunk, startEventStream, writeEvent } from './sse.js';

/** One open event stream. */
export class EventStream {
  readonly res: Response;
  readonly accountNumber: number;
  /** Whether the caller may still see it (credentials, membership). */
  readonly allowed: () => Promise<boolean>;

  constructor(res: Response, accountNumber: number, allowed: () => Promise<boolean>) {
    this.res = res;
    this.accountNumber = accountNumber;
    this.allowed = allowed;
  }

  get ended(): boolean {
    return this.res.writableEnded;
  }

  /** Writes a chunk in the stream's wire form (see `eventChunk`). */
  write(chunk: string): void {
    writeEvent(this.res, chunk);
  }

  event(name: string, data: string): void {
    this.write(eventChunk(name, data));
  }

  end(): void {
    this.res.end();
  }
}

/**
 * The open event streams of one kind (an interface's event stream, the page streams): at most
 * so many per account, a comment line on each every HEARTBEAT_MS (proxies keep them open), and
 * each ended once its caller may no longer see it, or when the server stops.
 */
export class StreamSet {
  readonly #counts: StreamCounts;
  readonly #stopping: () => HttpProblem;
  readonly #onBeat: () => void;
  readonly #streams = new Set<EventStream>();
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;

  /**
   * `stopping`: the 503 of the interface's catalog once the server stops; `onBeat`: runs at each
   * heartbeat, before access is checked again.
   */
  constructor(options: {
    maxPerAccount: number;
    stopping: () => HttpProblem;
    onBeat?: () => void;
  }) {
    this.#counts = new StreamCounts(options.maxPerAccount);
    this.#stopping = options.stopping;
    this.#onBeat = options.onBeat ?? (() => {});
  }

  get size(): number {
    return this.#streams.size;
  }

  /** 503 once the server stops. */
  refuseIfClosed(): void {
    if (this.#closed) throw this.#stopping();
  }

  /**
   * Answers `res` with an event stream: 429 when the account has its most open already, 503
   * once the server stops. Null for HEAD (the answer is complete, nothing stays open).
   */
  open(input: {
    res: Response;
    accountNumber: number;
    head: boolean;
    allowed: () => Promise<boolean>;
  }): EventStream | null {
    const { res, accountNumber } = input;
    this.refuseIfClosed();
    this.#counts.take(accountNumber);
    if (!startEventStream(res, input.head)) {
      this.#counts.give(accountNumber);
      return null;
    }
    const stream = new EventStream(res, accountNumber, input.allowed);
    this.#streams.add(stream);
    res.once('close', () => {
      if (this.#streams.delete(stream)) this.#counts.give(accountNumber);
      if (this.#streams.size === 0) clearInterval(this.#heartbeat);
    });
    if (this.#streams.size === 1) {
      this.#heartbeat = setInterval(() => void this.#beat(), HEARTBEAT_MS);
      this.#heartbeat.unref();
    }
    return stream;
  }

  /** Ends every stream (their clients may connect again); later ones are refused (503). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    for (const stream of this.#streams) stream.end();
  }

  async #beat(): Promise<void> {
    const streams = [...this.#streams];
    for (const { res } of streams) if (!res.writableEnded) res.write(': heartbeat\n\n');
    this.#onBeat();
    await Promise.all(
      streams.map(async (stream) => {
        if (!(await stream.allowed().catch(() => true))) stream.end();
      }),
    );
  }
}
