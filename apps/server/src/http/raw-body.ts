import type { ByteStore } from '@galley/store';
import type { Request } from 'express';
import { problemOf } from './problem.js';

/**
 * Uploads are stored as sent: a body with a `Content-Encoding` (gzip…) is 415, not its coded
 * bytes stored in place of the content.
 */
export function refuseContentEncoding(req: Request): void {
  const coding = req.get('content-encoding')?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    throw problemOf('unsupported_media_type', {
      detail: `Uploads take no Content-Encoding (${coding}): send the bytes themselves.`,
    });
  }
}

/**
 * Streams the raw request body into the byte store, hashing on the way (for POST /blobs).
 * A declared or counted size over `maxBytes` is a 413 `body_too_large`, and nothing is kept.
 */
export async function putRequestBody(
  req: Request,
  bytes: ByteStore,
  options: { maxBytes: number },
): Promise<{ sha256: string; size: number; created: boolean }> {
  const declared = Number(req.get('content-length'));
  const tooLarge = () =>
    problemOf('body_too_large', { detail: `The body is larger than ${options.maxBytes} bytes.` });
  if (Number.isFinite(declared) && declared > options.maxBytes) throw tooLarge();
  refuseContentEncoding(req);
  // Not destroying the request on an early stop keeps the socket able to carry the 413.
  const result = await bytes.put(req.iterator({ destroyOnReturn: false }), options);
  if (!result.ok) throw tooLarge();
  return { sha256: result.sha256, size: result.size, created: result.created };
}
