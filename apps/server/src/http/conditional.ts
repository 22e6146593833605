import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

/**
 * Whether an `If-None-Match` value names this ETag: `*`, or a list compared weakly, as RFC 9110
 * §13.1.2 asks (`W/"…"` matches `"…"`). Decided here, not by Express's `req.fresh`, which also
 * honours a request's `Cache-Control: no-cache` (fetch adds it to every conditional request).
 */
export function noneMatchIncludes(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Sends `stream` as the body; a client that goes away mid-body is not a server error. */
export async function streamBody(stream: Readable, res: Response): Promise<void> {
  await pipeline(stream, res).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  });
}
