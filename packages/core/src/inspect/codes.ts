import type { CodeCatalog } from '../report/codes.js';

/** Codes found by inspect/ (namespaced by check, e.g. `links.missing`). */
export const inspectCodes = {} as const satisfies CodeCatalog;
