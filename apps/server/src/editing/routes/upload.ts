import { declaredSize, defaultZipLimits, v1 } from '@galley/core';
import type { Request } from 'express';
import { readMultipart } from '../../http/multipart.js';
import { fieldErrorsOf, parseInput } from '../../http/parse.js';
import type { FieldError } from '../../http/parse.js';
import { problemOf } from '../../http/problem.js';
import type { EditingContext } from '../context.js';
import type { Intake, SiteOptions } from '../service/folder-state.js';

/** The site's choices from the upload's text fields (422 `validation_failed` when invalid). */
function siteOptionsOf(fields: Record<string, string>): SiteOptions {
  const parsed = parseInput(v1.SiteFields, { ...fields });
  return {
    ...(parsed.index === undefined ? {} : { index: parsed.index }),
    ...(parsed.drop_external ? { dropExternal: true } : {}),
    ...(parsed.drop_missing ? { dropMissing: true } : {}),
  };
}

/**
 * The multipart field `zip` of a folder upload (413 past `maxBytes`, counted while streaming),
 * and its text fields: only the site's choices (`SiteFields`) are known.
 */
async function readZipUpload(
  req: Request,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; fields: Record<string, string> }> {
  const { file, fields } = await readMultipart(req, { fileField: 'zip', maxFileBytes: maxBytes });
  const reasons: FieldError[] = [];
  for (const name of Object.keys(fields))
    if (!Object.hasOwn(v1.SiteFields.shape, name)) reasons.push([name, 'unknown field']);
  if (!file) reasons.push(['zip', 'a ZIP file is required in the multipart field `zip`']);
  if (!file || reasons.length) {
    throw problemOf('validation_failed', {
      detail: 'Send the folder as the multipart file field `zip`.',
      extras: { errors: fieldErrorsOf(reasons) },
    });
  }
  return { bytes: file.bytes, fields };
}

/**
 * A folder upload, judged (see `intakeZip`): a large folder in the pool, its bytes moved there,
 * so reading, checking and converting it never holds the event loop. Large by what the ZIP
 * declares it holds: a 2 MB page zips to a tenth of that, and reading it is 2 MB of work.
 */
export async function intakeUpload(req: Request, ctx: EditingContext): Promise<Intake> {
  const { bytes: zip, fields } = await readZipUpload(req, ctx.maxZipBytes);
  const site = siteOptionsOf(fields);
  const size = ctx.pool.offloads(zip.byteLength)
    ? zip.byteLength
    : Math.max(zip.byteLength, declaredSize(zip, defaultZipLimits.maxEntries) ?? 0);
  return ctx.pool.run('intake', { zip, site }, { size, move: true });
}
