import type { CodeCatalog } from '../report/codes.js';

/** Codes found by zip/ (namespaced by check, e.g. `links.missing`). */
export const zipCodes = {} as const satisfies CodeCatalog;
