import { StoredNumber } from '@galley/core';
import type { EditingRoutes } from '@galley/core';
import { z } from 'zod';
import { decodeCursor, pageOf } from '../../http/paging.js';
import type { EditingContext } from '../context.js';

/** Cursors of the lists that continue below a number (history, confirmations) or after it. */
const cursors = {
  below: z.strictObject({ below: StoredNumber }),
  after: z.strictObject({ after: StoredNumber }),
};

/** What a numbered list is read with: one row more than the page (it tells whether more follow). */
export interface NumberedRange {
  limit: number;
  before?: number;
  after?: number;
}

/**
 * One page of a project's list ordered by a number (`below`: newest first, `after`: oldest
 * first), with the absolute `next_page_url` of the next page, or null on the last.
 */
export async function numberedPage<R>(
  ctx: EditingContext,
  list: { route: keyof EditingRoutes; projectId: string; from: 'below' | 'after' },
  query: { per_page: number; page?: string | undefined },
  read: (range: NumberedRange) => Promise<R[]>,
  numberOf: (row: R) => number,
): Promise<{ shown: R[]; next_page_url: string | null }> {
  const { from } = list;
  const after = decodeCursor(cursors[from], query.page);
  const bound = after && ('below' in after ? after.below : after.after);
  const range: NumberedRange = { limit: query.per_page + 1 };
  if (bound !== undefined) range[from === 'below' ? 'before' : 'after'] = bound;
  const rows = await read(range);
  const { shown, cursor } = pageOf(rows, query.per_page, (last) => ({ [from]: numberOf(last) }));
  const next = ctx.urls.nextPage(list.route, { id: list.projectId }, query.per_page, cursor);
  return { shown, next_page_url: next };
}
