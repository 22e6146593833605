import type { Response } from 'express';
import { problemOf } from '../http/problem.js';

/** What a stream may have waiting to be sent before it is cut (a client that stopped reading). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** How long a browser's EventSource waits before it connects again after a stream ended. */
const RETRY_MS = 2_000;
/** How often every stream gets a comment line (proxies keep it open) and its access is checked. */
export const HEARTBEAT_MS = 15_000;

/** Answers 200 `text/event-stream`; false for HEAD (the answer is complete). */
export function startEventStream(res: Response, head: boolean): boolean {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'X-Accel-Buffering': 'no',
  });
  if (head) {
    res.end();
    return false;
  }
  res.flushHeaders();
  res.write(`retry: ${RETRY_MS}\n\n`);
  return true;
}

/** One event in the stream's wire form. */
export function eventChunk(event: string, data: string, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

/** Writes `chunk`; a client that stopped reading is dropped rather than held in memory. */
export function writeEvent(res: Response, chunk: string): void {
  if (res.writableEnded || res.destroyed) return;
  if (res.writableLength > MAX_BUFFERED_BYTES) {
    res.destroy();
    return;
  }
  res.write(chunk);
}

/** Open streams per account, bounded; `take` answers false when the account has its most. */
export class StreamCounts {
  readonly #open = new Map<number, number>();
  readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** One more of the account's streams, or 429 `too_many_streams` when all it may have are open. */
  take(accountNumber: number): void {
    const open = this.#open.get(accountNumber) ?? 0;
    if (open >= this.max) {
      throw problemOf('too_many_streams', {
        detail: `At most ${this.max} event streams may be open per account; close one first.`,
        headers: { 'Retry-After': '5' },
      });
    }
    this.#open.set(accountNumber, open + 1);
  }

  give(accountNumber: number): void {
    const left = (this.#open.get(accountNumber) ?? 1) - 1;
    if (left > 0) this.#open.set(accountNumber, left);
    else this.#open.delete(accountNumber);
  }
}
