import type { Request } from 'express';
import { z } from 'zod';
import { invalidFields } from './problems.js';

/**
 * Opaque `page` cursors: base64url JSON of where the previous page ended. Any value that does not
 * decode to the expected shape is a 422 on `page` (decisions §8).
 */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<S extends z.ZodType>(schema: S, page: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidFields({ page: ['not a page cursor of this list'] });
  return parsed.data;
}

/** The absolute URL of the next page: the same query with `page` set (decisions §8). */
export function nextPageUrl(baseUrl: string, req: Request, page: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(req.query)) {
    if (name !== 'page' && typeof value === 'string') query.set(name, value);
  }
  query.set('page', page);
  return `${baseUrl}${req.baseUrl}${req.path}?${query.toString()}`;
}

/** Asset list cursor: the sort it belongs to, the last item's sort key and id. */
export const AssetCursor = z.tuple([z.enum(['updated', 'title']), z.string(), z.string()]);
/** Revision list cursor: the last revision number shown. */
export const RevisionCursor = z.tuple([z.literal('r'), z.number().int().min(1)]);
