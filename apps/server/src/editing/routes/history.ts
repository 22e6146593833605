import type { EditingRouter } from '../../openapi/api-router.js';
import { holderOf, projectFor, refuseForeignLock } from './access.js';
import type { EditingContext } from '../context.js';
import { historyEntryBody, projectBody } from '../present.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { BelowCursor } from '../urls.js';

/** Saved history: read it, and undo or redo a saved change as a new revision. */
export function historyRoutes(api: EditingRouter, ctx: EditingContext): void {
  api.handle('history', async ({ req, res, params, query }) => {
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
      next_page_url: ctx.urls.nextPage('history', { id: project.id }, per_page, cursor),
    });
  });

  api.handle('moveHistory', async ({ req, res, params, body }) => {
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
  });
}
