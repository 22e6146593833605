import { StoredNumber, Timestamp } from '@galley/core';
import { z } from 'zod';

/** Asset list cursor: the sort it belongs to, the last item's sort key and id. */
export const AssetCursor = z.union([
  z.tuple([z.literal('updated'), Timestamp, z.string().min(1)]),
  z.tuple([z.literal('title'), z.string(), z.string().min(1)]),
]);
/** Revision list cursor: the last revision number shown. */
export const RevisionCursor = z.tuple([z.literal('r'), StoredNumber]);
