import { StoredNumber } from '@galley/core';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { EditingRouter } from '../../openapi/api-router.js';
import { projectChangeFor, projectFor } from './access.js';
import type { EditingContext } from '../context.js';
import { pageItems, projectBody, withUnsavedDrafts } from '../present.js';
import { folderCheckFailed, v1ProblemOf } from '../problems.js';
import { FolderZips } from '../service/folder-zips.js';
import type { ZipAnswer } from '../service/folder-zips.js';
import { intakeUpload } from './upload.js';
import { noneMatchIncludes, streamBody } from '../../http/conditional.js';
import { decodeCursor, encodeCursor, invalidCursor } from '../../http/paging.js';

/**
 * Where a page of the page list ended, in the revision it was read from: the next pages come
 * from that revision too (revisions never change), so a folder replaced meanwhile neither
 * repeats nor skips a page.
 */
const PagesCursor = z.strictObject({ r: StoredNumber, o: StoredNumber });

/** Folder export and replacement, confirmed versions' ZIPs, and the page list. */
export function folderRoutes(api: EditingRouter, ctx: EditingContext): void {
  const zips = new FolderZips(ctx.files, ctx.store.bytes);
  api.handle('downloadFolder', async ({ req, res, params }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const state = await ctx.states.get(project.id, project.revision);
    await sendZip(req, res, await zips.ofState(state), `${project.id}-r${project.revision}.zip`);
  });

  api.handle('downloadVersion', async ({ req, res, params }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const confirmation = await ctx.store.confirmations.byVersion(project.id, params.version);
    if (!confirmation)
      throw v1ProblemOf('not_found', { detail: `No confirmed version ${params.version}.` });
    const zip = zips.stored(confirmation.sha256, confirmation.size);
    await sendZip(req, res, zip, `${project.id}-v${confirmation.version}.zip`);
  });

  api.handle('replaceFolder', async ({ req, res, params }) => {
    const access = await projectChangeFor(ctx, req, params.id, 'edit');
    const intake = await intakeUpload(req, ctx);
    if (!intake.ok) throw folderCheckFailed(intake.report);
    const project = await ctx.changes.replaceFolder(params.id, access.auth.account, intake);
    const body = projectBody(ctx.urls, { project, role: access.role });
    res.json(intake.site ? { ...body, site: intake.site } : body);
  });

  api.handle('listPages', async ({ req, res, params, query }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const { per_page, page } = query();
    const cursor = decodeCursor(PagesCursor, page);
    if (cursor && cursor.r > project.revision) {
      throw invalidCursor();
    }
    const revision = cursor?.r ?? project.revision;
    const offset = cursor?.o ?? 0;
    const state = await ctx.states.get(project.id, revision);
    const items = pageItems(state, await ctx.store.projectRevisions.pageIds(project.id));
    const end = offset + per_page;
    const shown = items.slice(offset, end);
    const unsaved = await ctx.store.drafts.unsaved(
      project.id,
      shown.map((item) => item.id),
    );
    res.json({
      pages: withUnsavedDrafts(shown, unsaved),
      next_page_url: ctx.urls.nextPage(
        'listPages',
        { id: project.id },
        per_page,
        end < items.length ? encodeCursor({ r: revision, o: end }) : null,
      ),
    });
  });
}

/**
 * 200 with the ZIP streamed (the client's pace sets the writing's), or 304 when `If-None-Match`
 * names its ETag.
 */
async function sendZip(req: Request, res: Response, zip: ZipAnswer, filename: string) {
  const etag = `"${zip.sha256}"`;
  res.setHeader('ETag', etag);
  if (noneMatchIncludes(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).set({
    'Content-Type': 'application/zip',
    'Content-Length': String(zip.size),
    'Content-Disposition': `attachment; filename="${filename}"`,
    'X-Content-SHA256': zip.sha256,
  });
  await streamBody(await zip.body(), res);
}
