import { Timestamp } from '@galley/core';
import { z } from 'zod';
import { authOf } from '../../auth/context.js';
import { editorClientOf } from '../../http/editor-client.js';
import type { EditingRouter } from '../../openapi/api-router.js';
import type { EditingContext } from '../context.js';
import { projectBody } from '../present.js';
import { folderCheckFailed } from '../problems.js';
import { deleteProject } from '../service/projects.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { projectChangeFor, projectFor } from './access.js';
import { intakeUpload } from './upload.js';

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
    const project = await ctx.changes.create(auth.account, intake);
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
    const access = await projectChangeFor(ctx, req, params.id, 'edit');
    const { title } = await body();
    const project = await ctx.changes.rename(params.id, access.auth.account, title);
    res.json(projectBody(ctx.urls, { project, role: access.role }));
  });

  api.handle('deleteProject', async ({ req, res, params }) => {
    await projectChangeFor(ctx, req, params.id, 'owner');
    await deleteProject(ctx, params.id);
    res.status(204).end();
  });
}
