import { v1 } from '@galley/core';
import type { Request } from 'express';
import { readMultipart } from '../http/multipart.js';
import { fieldErrorsOf } from '../http/parse.js';
import type { FieldError } from '../http/parse.js';
import { problemOf } from '../http/problem.js';
import type { V1Context } from './context.js';
import type { Intake } from './services/folder-state.js';
import { siteOptionsOf } from './site-upload.js';

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
 * A folder upload, judged (see `intakeZip`): a large ZIP in the pool, its bytes moved there, so
 * reading, checking and converting it never holds the event loop.
 */
export async function intakeUpload(req: Request, ctx: V1Context): Promise<Intake> {
  const { bytes: zip, fields } = await readZipUpload(req, ctx.maxZipBytes);
  const site = siteOptionsOf(fields);
  return ctx.pool.run('intake', { zip, site }, { size: zip.byteLength, move: true });
}
