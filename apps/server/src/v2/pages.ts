import { StoredNumber } from '@galley/core';
import { z } from 'zod';

/** Asset list cursor: the sort it belongs to, the last item's sort key and id. */
export const AssetCursor = z.tuple([z.enum(['updated', 'title']), z.string(), z.string()]);
/** Revision list cursor: the last revision number shown. */
export const RevisionCursor = z.tuple([z.literal('r'), StoredNumber]);
