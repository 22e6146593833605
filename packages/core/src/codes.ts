// The catalog sits above the domains: each domain's codes.ts is a leaf that imports nothing, so
// the report layer and every domain can read the combined catalog without an import running back.
import { checksCodes } from './checks/codes.js';
import { inspectCodes } from './inspect/codes.js';
import { siteCodes } from './site/codes.js';
import { zipCodes } from './zip/codes.js';

/** A catalog entry: the human text of a code, kept apart from where the problem is found. */
export interface CodeEntry {
  readonly message: string;
  readonly suggestion?: string;
}
export type CodeCatalog = Readonly<Record<string, CodeEntry>>;

/** The one catalog of every violation code: `<check>.<name>` → message and suggestion. */
export const violationCodes = {
  ...zipCodes,
  ...checksCodes,
  ...siteCodes,
  ...inspectCodes,
} as const satisfies CodeCatalog;
export type ViolationCode = keyof typeof violationCodes;
