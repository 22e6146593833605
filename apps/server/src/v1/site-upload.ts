import { z } from 'zod';
import type { SiteOptions } from './services/folder-state.js';
import { parseInput } from '../http/parse.js';

/** A multipart flag: the text `true` or `false` (what an HTML form or `curl -F` sends). */
const Flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * The text fields of a folder upload that choose how a plain site is converted (decisions §5
 * when none is given); a project folder ignores them. The one source of their documentation.
 */
export const SiteFields = z.strictObject({
  index: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'The entry page of a site without `index.html`, by its path in the site (e.g. `home.html`); it becomes `index.html`.',
    ),
  drop_external: Flag.optional().describe(
    '`true`: elements that load from another origin are removed instead of failing with `site.external`; an iframe becomes a link to what it showed. Each removal is a warning (`site.external_dropped`, `site.embed_linked`). Default `false`.',
  ),
  drop_missing: Flag.optional().describe(
    '`true`: elements that load an absent local file, or one of a type the web medium does not allow, are removed instead of failing with `site.missing` or `site.file_type`. Each removal is a warning (`site.missing_dropped`). Default `false`.',
  ),
});

/** The multipart form of a folder upload, as documented: the ZIP and the site's choices. */
export const FolderUploadForm = SiteFields.extend({
  zip: z.string().meta({ contentMediaType: 'application/zip' }),
});

/** The site's choices from the upload's text fields (422 `validation_failed` when invalid). */
export function siteOptionsOf(fields: Record<string, string>): SiteOptions {
  const parsed = parseInput(SiteFields, { ...fields });
  return {
    ...(parsed.index === undefined ? {} : { index: parsed.index }),
    ...(parsed.drop_external ? { dropExternal: true } : {}),
    ...(parsed.drop_missing ? { dropMissing: true } : {}),
  };
}
