// What the editing interface's operations take beside JSON bodies: path parameters (a value that
// cannot be an id answers 404, like an id that names nothing) and the folder upload's form.
import { z } from 'zod';
import { StoredNumber, binary } from './common.js';

const idOf = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{20}$`));

/** A number in the path (`1`, never `01`), no larger than the stores keep. */
const NumberParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number)
  .pipe(StoredNumber);

export const ProjectId = idOf('prj');
export const PageId = idOf('pg');
export const ConfirmationId = idOf('cnf');

export const ProjectParams = z.object({ id: ProjectId });
export const PageParams = z.object({ page: PageId });
export const MemberParams = z.object({
  id: ProjectId,
  user: NumberParam,
});
export const VersionParams = z.object({
  id: ProjectId,
  version: NumberParam,
});
export const ConfirmationParams = z.object({ id: ProjectId, confirmation: ConfirmationId });
export const PageRevisionParams = z.object({ page: PageId, revision: NumberParam });

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
export const FolderUploadForm = SiteFields.extend({ zip: binary('application/zip') });
