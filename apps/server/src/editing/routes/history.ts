import type { EditingRouter } from '../../openapi/api-router.js';
import type { EditingContext } from '../context.js';
import { historyEntryBody, projectBody } from '../present.js';
import { projectChangeFor, projectFor } from './access.js';
import { numberedPage } from './paging.js';

/** Saved history: read it, and undo or redo a saved change as a new revision. */
export function historyRoutes(api: EditingRouter, ctx: EditingContext): void {
  api.handle('history', async ({ req, res, params, query }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const revisions = ctx.store.projectRevisions;
    const list = { route: 'history', projectId: project.id, from: 'below' } as const;
    const [page, flags] = await Promise.all([
      numberedPage(
        ctx,
        list,
        query(),
        (range) => revisions.history(project.id, range),
        (entry) => entry.revision,
      ),
      revisions.flags(project.id),
    ]);
    res.json({
      revision: project.revision,
      can_undo: flags.canUndo,
      can_redo: flags.canRedo,
      entries: page.shown.map(historyEntryBody),
      next_page_url: page.next_page_url,
    });
  });

  api.handle('moveHistory', async ({ req, res, params, body }) => {
    const access = await projectChangeFor(ctx, req, params.id, 'edit');
    const { direction, revision } = await body();
    const project = await ctx.changes.moveHistory(
      params.id,
      access.auth.account,
      direction,
      revision,
    );
    res.json(projectBody(ctx.urls, { project, role: access.role }));
  });
}
