import type { Request } from 'express';
import { parseNoBody } from '../../http/parse.js';
import type { EditingRouter } from '../../openapi/api-router.js';
import type { EditingContext } from '../context.js';
import { v1ProblemOf } from '../problems.js';
import { requireOwnLock } from '../service/access.js';
import type { SaveService } from '../service/save-service.js';
import { editingFor } from './access.js';

/** Steps 2 to 4 of the editing flow: drafts, operations, draft undo/redo, save. */
export function draftRoutes(api: EditingRouter, ctx: EditingContext, saves: SaveService): void {
  const editing = (req: Request, pageId: string) => editingFor(ctx, req, pageId);

  api.handle('openDraft', async ({ req, res, params }) => {
    const { access, lock, holder, draft } = await editing(req, params.page);
    requireOwnLock(lock, holder);
    const view = await ctx.drafts.exclusive(access, holder, () =>
      ctx.drafts.open(access, holder, draft),
    );
    // JSON text already (its page members may come from a worker): sent as res.json would.
    res.set('Content-Type', 'application/json; charset=utf-8').send(view.json);
  });

  api.handle('discardDraft', async ({ req, res, params }) => {
    const { access, lock, holder, draft } = await editing(req, params.page);
    requireOwnLock(lock, holder);
    await ctx.drafts.exclusive(access, holder, () => ctx.drafts.discard(access, holder, draft));
    res.status(204).end();
  });

  api.handle('draftLog', async ({ req, res, params }) => {
    const { access, lock, holder, draft } = await editing(req, params.page);
    requireOwnLock(lock, holder);
    const row = await ctx.drafts.newest(access, holder, draft);
    if (!row)
      throw v1ProblemOf('no_draft', { detail: 'This client has no open draft of the page.' });
    const operations = await ctx.drafts.operationsInEffect(row);
    res.json({ base_revision: row.baseRevision, operations });
  });

  api.handle('applyOperation', async ({ req, res, params, body }) => {
    const { access, lock, holder, draft } = await editing(req, params.page);
    const request = await body();
    requireOwnLock(lock, holder);
    res.json(
      await ctx.drafts.exclusive(access, holder, () =>
        ctx.drafts.operate(access, holder, draft, request),
      ),
    );
  });

  for (const direction of ['undo', 'redo'] as const) {
    api.handle(direction === 'undo' ? 'undoDraft' : 'redoDraft', async ({ req, res, params }) => {
      const { access, lock, holder, draft } = await editing(req, params.page);
      await parseNoBody(req, res, ctx.jsonLimitBytes);
      requireOwnLock(lock, holder);
      res.json(
        await ctx.drafts.exclusive(access, holder, () =>
          ctx.drafts.move(access, holder, draft, direction),
        ),
      );
    });
  }

  api.handle('save', async ({ req, res, params, body }) => {
    const found = await editing(req, params.page);
    const request = await body();
    res.json(await saves.saveDraft(found, found.access.auth.account, request));
  });
}
