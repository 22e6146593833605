import { v1 } from '@galley/core';
import type { SiteOptions } from './services/folder-state.js';
import { parseInput } from '../http/parse.js';

/** The site's choices from the upload's text fields (422 `validation_failed` when invalid). */
export function siteOptionsOf(fields: Record<string, string>): SiteOptions {
  const parsed = parseInput(v1.SiteFields, { ...fields });
  return {
    ...(parsed.index === undefined ? {} : { index: parsed.index }),
    ...(parsed.drop_external ? { dropExternal: true } : {}),
    ...(parsed.drop_missing ? { dropMissing: true } : {}),
  };
}
