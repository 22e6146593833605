import type { CodeCatalog } from '../report/codes.js';

/** Codes found by checks/ (namespaced by check, e.g. `links.missing`). */
export const checksCodes = {} as const satisfies CodeCatalog;
