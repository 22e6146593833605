import type { Request, Response } from 'express';
import { declaredLength } from './json-body.js';

/**
 * At most this much of a refused body is read and thrown away: a 100 MiB upload sent to a 16 MiB
 * limit fits. A client that sends more, pauses longer than IDLE_MS, or takes longer than
 * TOTAL_MS is cut off, so a refused body never holds a connection for long.
 */
const DISCARD_BYTES = 128 * 1024 * 1024;
const IDLE_MS = 2_000;
const TOTAL_MS = 30_000;

/**
 * Before a 413: the rest of the body, which will not be used, is read and thrown away (bounded)
 * while the answer goes out, so that a client that sends its whole body before it reads hears
 * the 413 instead of a connection closed under it (EPIPE, ECONNRESET); the connection may then
 * carry the next request. A body declared longer than the bound is not waited for: the answer
 * says `Connection: close`. Past a bound, the connection is cut.
 */
export function discardRest(req: Request, res: Response): void {
  if (req.complete || req.destroyed) return;
  if (declaredLength(req) - req.socket.bytesRead > DISCARD_BYTES) {
    res.setHeader('Connection', 'close');
    return;
  }
  let discarded = 0;
  const stop = (cut: boolean) => {
    clearTimeout(idle);
    clearTimeout(total);
    req.off('data', count);
    req.off('end', ended);
    req.off('close', ended);
    if (cut) req.socket.destroy();
  };
  const ended = () => stop(false);
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_BYTES) stop(true);
    else idle.refresh();
  };
  const idle = setTimeout(() => stop(true), IDLE_MS);
  const total = setTimeout(() => stop(true), TOTAL_MS);
  req.on('data', count);
  req.once('end', ended);
  req.once('close', ended);
  req.resume();
}
