import type { Request } from 'express';
import { StoredNumber } from '@galley/core';
import { z } from 'zod';

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
export const RevisionCursor = z.tuple([z.literal('r'), StoredNumber]);
