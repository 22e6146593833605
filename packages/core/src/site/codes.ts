import type { CodeCatalog } from '../report/codes.js';

/** Codes found by site/ (namespaced by check, e.g. `links.missing`). */
export const siteCodes = {} as const satisfies CodeCatalog;
