import { FieldErrors, PageQuery, Timestamp, v1 } from '@galley/core';
import { z } from 'zod';
import { authOf } from '../../auth/context.js';
import { editorClientOf } from '../../http/editor-client.js';
import type { ApiRouter } from '../../openapi/api-router.js';
import type { ResponseSpec } from '../../openapi/registry.js';
import { holderOf, projectFor, refuseForeignLock } from '../access.js';
import type { V1Context } from '../context.js';
import { projectBody } from '../present.js';
import { folderCheckFailed, v1ProblemOf } from '../problems.js';
import { ProjectParams } from '../schemas.js';
import { intakeUpload, zipUploadBody } from '../upload.js';
import { decodeCursor, pageOf } from '../../http/paging.js';

const tags = ['Projects'];
const ProjectCursor = z.strictObject({ c: Timestamp, i: z.string().min(1) });
/** 422 of a write whose result is checked: the report, or an input refused before any check. */
export const checkFailure: ResponseSpec = {
  description:
    'The checks fail (`checks`, `violations`, `contracts`), or the input is invalid ' +
    '(`validation_failed` with `errors`)',
  schema: z.union([v1.FolderCheckFailure, z.object({ errors: FieldErrors })]),
};

/** GET/POST /projects…, GET/PATCH/DELETE /projects/{id}. */
export function projectRoutes(api: ApiRouter, ctx: V1Context): void {
  api.route(
    {
      method: 'get',
      path: '/projects',
      summary: 'Projects the caller can open, newest first',
      tags,
      query: PageQuery,
      responses: { 200: { description: 'A page of projects', schema: v1.ProjectList } },
    },
    async ({ req, res, query }) => {
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
        next_page_url: ctx.urls.nextPage('/projects', per_page, cursor),
      });
    },
  );

  api.route(
    {
      method: 'post',
      path: '/projects/folder',
      summary: 'Open a project folder (or a plain site) as a new project',
      tags,
      editorClient: true,
      requestBody: zipUploadBody,
      responses: {
        201: {
          description: 'The new project; `site` when a plain site was converted',
          schema: v1.CreatedProject,
          headers: { Location: { description: 'URL of the new project' } },
        },
        413: { description: 'The ZIP is too large' },
        422: checkFailure,
      },
    },
    async ({ req, res }) => {
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
    },
  );

  api.route(
    {
      method: 'get',
      path: '/projects/{id}',
      summary: 'Read a project',
      tags,
      params: ProjectParams,
      responses: { 200: { description: 'The project', schema: v1.Project }, 404: notFound },
    },
    async ({ req, res, params }) => {
      res.json(projectBody(ctx.urls, await projectFor(ctx, req, params.id, 'read')));
    },
  );

  api.route(
    {
      method: 'patch',
      path: '/projects/{id}',
      summary: 'Rename a project (a change of project.json, recorded in history)',
      tags,
      editorClient: true,
      params: ProjectParams,
      body: v1.RenameProject,
      responses: writeResponses({
        200: { description: 'The project', schema: v1.Project },
        503: projectBusy,
      }),
    },
    async ({ req, res, params, body }) => {
      const access = await projectFor(ctx, req, params.id, 'edit');
      await refuseForeignLock(ctx, req, access);
      holderOf(req, access.auth);
      const { title } = await body();
      const project = await ctx.changes.rename(params.id, access.auth.account, title);
      res.json(projectBody(ctx.urls, { project, role: access.role }));
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/projects/{id}',
      summary: 'Delete a project and all its data (owner only)',
      tags,
      editorClient: true,
      params: ProjectParams,
      responses: writeResponses({ 204: { description: 'Deleted' } }),
    },
    async ({ req, res, params }) => {
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
    },
  );
}

export const notFound = { description: 'No such project, or the caller is not a member' };

/** A change of the saved folder that other processes' changes kept overtaking. */
export const projectBusy = {
  description: '`project_busy`: other changes of the project kept coming first; see Retry-After',
};

/**
 * The refusals every project write can answer, plus its own answers (which say more); those of
 * its input (400, 413, 415, 422) come from what it reads (see `inputResponses`).
 */
export function writeResponses(own: Record<number, ResponseSpec>): Record<number, ResponseSpec> {
  return {
    403: { description: 'The caller’s role does not allow this' },
    404: notFound,
    423: { description: 'Another client holds the lock (`lock`)' },
    ...own,
  };
}
