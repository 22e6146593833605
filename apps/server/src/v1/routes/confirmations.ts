import { PageQuery, v1 } from '@galley/core';
import type { ApiRouter } from '../../openapi/api-router.js';
import { holderOf, projectFor, refuseForeignLock } from '../access.js';
import type { V1Context } from '../context.js';
import { confirmationBody } from '../present.js';
import { v1ProblemOf } from '../problems.js';
import { parseOptionalBody } from '../../http/parse.js';
import { ConfirmationParams, ProjectParams } from '../schemas.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { BelowCursor } from '../urls.js';
import { notFound, projectBusy, writeResponses } from './projects.js';

const tags = ['Confirmed versions'];

/** Versions confirmed by a person; integrations poll these and import confirmed ZIPs only. */
export function confirmationRoutes(api: ApiRouter, ctx: V1Context): void {
  const present = async (projectId: string, revision: number) => {
    const current = await ctx.states.get(projectId, revision);
    return (c: Parameters<typeof confirmationBody>[1]) => confirmationBody(ctx.urls, c, current);
  };

  api.route(
    {
      method: 'get',
      path: '/projects/{id}/confirmations/latest',
      summary: 'The latest confirmed version (404 when none exists yet)',
      tags,
      params: ProjectParams,
      responses: { 200: { description: 'The latest', schema: v1.Confirmation }, 404: notFound },
    },
    async ({ req, res, params }) => {
      const { project } = await projectFor(ctx, req, params.id, 'read');
      const latest = await ctx.store.confirmations.latest(project.id);
      if (!latest)
        throw v1ProblemOf('no_confirmation', { detail: 'Nothing has been confirmed yet.' });
      res.json((await present(project.id, project.revision))(latest));
    },
  );

  api.route(
    {
      method: 'get',
      path: '/projects/{id}/confirmations/{confirmation}',
      summary: 'One confirmed version',
      tags,
      params: ConfirmationParams,
      responses: { 200: { description: 'The version', schema: v1.Confirmation }, 404: notFound },
    },
    async ({ req, res, params }) => {
      const { project } = await projectFor(ctx, req, params.id, 'read');
      const found = await ctx.store.confirmations.byId(project.id, params.confirmation);
      if (!found) throw v1ProblemOf('not_found', { detail: 'No such confirmation.' });
      res.json((await present(project.id, project.revision))(found));
    },
  );

  api.route(
    {
      method: 'get',
      path: '/projects/{id}/confirmations',
      summary: 'Confirmed versions, newest first',
      tags,
      params: ProjectParams,
      query: PageQuery,
      responses: {
        200: { description: 'A page of versions', schema: v1.ConfirmationList },
        404: notFound,
      },
    },
    async ({ req, res, params, query }) => {
      const { project } = await projectFor(ctx, req, params.id, 'read');
      const { per_page, page } = query();
      const before = decodeCursor(BelowCursor, page)?.below;
      const rows = await ctx.store.confirmations.list(project.id, {
        limit: per_page + 1,
        ...(before !== undefined ? { before } : {}),
      });
      const { shown, cursor } = pageOf(rows, per_page, (last) => ({ below: last.version }));
      res.json({
        confirmations: shown.map(await present(project.id, project.revision)),
        next_page_url: ctx.urls.nextPage(`/projects/${project.id}/confirmations`, per_page, cursor),
      });
    },
  );

  api.route(
    {
      method: 'post',
      path: '/projects/{id}/confirmations',
      summary: 'Confirm the current saved version (a person on the screen; a token gets 403)',
      tags,
      editorClient: true,
      params: ProjectParams,
      requestBody: {
        contentType: 'application/json',
        schema: v1.Confirm,
        required: false,
        description: '`{note?}`; may be left out',
      },
      responses: writeResponses({
        201: {
          description: 'The new confirmed version',
          schema: v1.Confirmation,
          headers: { Location: { description: 'URL of the confirmation' } },
        },
        423: { description: '`lock_held`: another client holds the lock (none is needed)' },
        503: projectBusy,
      }),
    },
    async ({ req, res, params }) => {
      const access = await projectFor(ctx, req, params.id, 'edit');
      if (access.auth.via !== 'session') {
        throw v1ProblemOf('confirmation_requires_person', {
          detail:
            'Confirming is a person’s action on the editing screen; an API token cannot confirm.',
        });
      }
      // Like every write, refused while another client holds the lock; it needs none of its own.
      await refuseForeignLock(ctx, req, access);
      holderOf(req, access.auth);
      const { note } = await parseOptionalBody(req, res, v1.Confirm, ctx.jsonLimitBytes);
      const confirmed = await ctx.changes.confirm(params.id, access.auth.account, note ?? null);
      const current = await ctx.changes.current(params.id);
      res
        .status(201)
        .location(ctx.urls.confirmation(params.id, confirmed.id))
        .json(confirmationBody(ctx.urls, confirmed, current));
    },
  );
}
