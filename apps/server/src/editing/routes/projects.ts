import { Timestamp } from '@galley/core';
import { z } from 'zod';
import { authOf } from '../../auth/context.js';
import { editorClientOf } from '../../http/editor-client.js';
import type { EditingRouter } from '../../openapi/api-router.js';
import { holderOf, projectFor, refuseForeignLock } from './access.js';
import type { EditingContext } from '../context.js';
import { projectBody } from '../present.js';
import { folderCheckFailed, v1ProblemOf } from '../problems.js';
import { intakeUpload } from './upload.js';
import { decodeCursor, pageOf } from '../../http/paging.js';

const ProjectCursor = z.strictObject({ c: Timestamp, i: z.string().min(1) });
/** GET/POST /projects…, GET/PATCH/DELETE /projects/{id}. */
export function projectRoutes(api: EditingRouter, ctx: EditingContext): void {
  api.handle('listProjects', async ({ req, res, query }) => {
    const auth = authOf(req);
    const { per_page, page } = query();
    const after = decodeCursor(ProjectCursor, page);
    const rows = await ctx.store.projects.listFor(auth.account.accountNumber, {
      limit: per_page + 1,
      ...(after ? { after: { createdAt: after.c, id: after.i } } : {}),
    });
    const { shown, cursor } = pageOf(rows, per_page, ({ project }) => ({
      c: project.createdAt,
      i: project.id,
    }));
    res.json({
      projects: shown.map((access) => projectBody(ctx.urls, access)),
      next_page_url: ctx.urls.nextPage('listProjects', {}, per_page, cursor),
    });
  });

  api.handle('createProject', async ({ req, res }) => {
    const auth = authOf(req);
    editorClientOf(req);
    const intake = await intakeUpload(req, ctx);
    if (!intake.ok) throw folderCheckFailed(intake.report);
    const project = await ctx.changes.create(auth.account, intake.folder);
    const body = projectBody(ctx.urls, { project, role: 'owner' });
    res
      .status(201)
      .location(ctx.urls.project(project.id))
      .json(intake.site ? { ...body, site: intake.site } : body);
  });

  api.handle('getProject', async ({ req, res, params }) => {
    res.json(projectBody(ctx.urls, await projectFor(ctx, req, params.id, 'read')));
  });

  api.handle('renameProject', async ({ req, res, params, body }) => {
    const access = await projectFor(ctx, req, params.id, 'edit');
    await refuseForeignLock(ctx, req, access);
    holderOf(req, access.auth);
    const { title } = await body();
    const project = await ctx.changes.rename(params.id, access.auth.account, title);
    res.json(projectBody(ctx.urls, { project, role: access.role }));
  });

  api.handle('deleteProject', async ({ req, res, params }) => {
    const access = await projectFor(ctx, req, params.id, 'owner');
    await refuseForeignLock(ctx, req, access);
    holderOf(req, access.auth);
    // Read first: once deleted, the project no longer says who may hear of it.
    const members = await ctx.store.projectMembers.list(params.id);
    if (!(await ctx.store.projects.delete(params.id)))
      throw v1ProblemOf('not_found', { detail: 'Gone.' });
    const audience = members.map((member) => member.accountNumber);
    ctx.signals.changed(params.id, { kind: 'project.deleted', data: {} }, audience);
    res.status(204).end();
  });
}
