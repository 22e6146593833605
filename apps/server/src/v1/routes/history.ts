import { PageQuery, v1 } from '@galley/core';
import type { ApiRouter } from '../../openapi/api-router.js';
import { holderOf, projectFor, refuseForeignLock } from '../access.js';
import type { V1Context } from '../context.js';
import { historyEntryBody, projectBody } from '../present.js';
import { ProjectParams } from '../schemas.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { BelowCursor } from '../urls.js';
import { notFound, writeResponses } from './projects.js';

const tags = ['History'];

/** Saved history: read it, and undo or redo a saved change as a new revision. */
export function historyRoutes(api: ApiRouter, ctx: V1Context): void {
  api.route(
    {
      method: 'get',
      path: '/projects/{id}/history',
      summary: 'History entries, newest first, and whether undo and redo are possible',
      tags,
      params: ProjectParams,
      query: PageQuery,
      responses: { 200: { description: 'The history', schema: v1.History }, 404: notFound },
    },
    async ({ req, res, params, query }) => {
      const { project } = await projectFor(ctx, req, params.id, 'read');
      const { per_page, page } = query();
      const before = decodeCursor(BelowCursor, page)?.below;
      const revisions = ctx.store.projectRevisions;
      const [entries, flags] = await Promise.all([
        revisions.history(project.id, {
          limit: per_page + 1,
          ...(before !== undefined ? { before } : {}),
        }),
        revisions.flags(project.id),
      ]);
      const { shown, cursor } = pageOf(entries, per_page, (last) => ({ below: last.revision }));
      res.json({
        revision: project.revision,
        can_undo: flags.canUndo,
        can_redo: flags.canRedo,
        entries: shown.map(historyEntryBody),
        next_page_url: ctx.urls.nextPage(`/projects/${project.id}/history`, per_page, cursor),
      });
    },
  );

  api.route(
    {
      method: 'put',
      path: '/projects/{id}/history',
      summary: 'Undo or redo a saved change (a new revision restoring a state)',
      description: '`revision` must be the current revision, else 409 `revision_conflict`.',
      tags,
      editorClient: true,
      params: ProjectParams,
      body: v1.HistoryMove,
      responses: writeResponses({
        200: { description: 'The project at its new revision', schema: v1.Project },
        409: {
          description: '`revision_conflict` (with `current_revision`), `nothing_to_undo`/`redo`',
        },
      }),
    },
    async ({ req, res, params, body }) => {
      const access = await projectFor(ctx, req, params.id, 'edit');
      await refuseForeignLock(ctx, req, access);
      holderOf(req, access.auth);
      const { direction, revision } = await body();
      const project = await ctx.changes.moveHistory(
        params.id,
        access.auth.account,
        direction,
        revision,
      );
      res.json(projectBody(ctx.urls, { project, role: access.role }));
    },
  );
}
