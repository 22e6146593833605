import type { Request } from 'express';
import type { z } from 'zod';
import { fieldErrorsOf, unstorableFields } from './parse.js';
import { problemOf } from './problem.js';

/**
 * Opaque `page` cursors of both interfaces: base64url JSON of where the previous page ended.
 * Any value that does not decode to the list's shape is a 422 on `page` (decisions §8).
 */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * The cursor's value, undefined without one; one that does not decode or fit, or that holds
 * U+0000 (never in a cursor the service made; PostgreSQL refuses it): 422.
 */
export function decodeCursor<S extends z.ZodType>(
  schema: S,
  raw: string | undefined,
): z.output<S> | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success && unstorableFields(value).length === 0) return parsed.data;
  throw invalidCursor();
}

/** 422 on `page`: a cursor this list did not make, or one that no longer fits it. */
export function invalidCursor() {
  return problemOf('validation_failed', {
    detail: 'The page cursor is not valid.',
    extras: { errors: fieldErrorsOf([['page', 'not a page cursor of this list']]) },
  });
}

/**
 * One page of a list read with `limit: perPage + 1` (the extra row only tells whether another
 * page follows): the rows to show, and the cursor of the next page or null on the last one.
 */
export function pageOf<R>(
  rows: readonly R[],
  perPage: number,
  cursorOf: (last: R) => unknown,
): { shown: R[]; cursor: string | null } {
  const shown = rows.slice(0, perPage);
  const last = shown.at(-1);
  const more = rows.length > perPage && last !== undefined;
  return { shown, cursor: more ? encodeCursor(cursorOf(last)) : null };
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
