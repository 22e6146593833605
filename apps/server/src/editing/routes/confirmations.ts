import { v1 } from '@galley/core';
import type { EditingRouter } from '../../openapi/api-router.js';
import { holderOf, projectFor, refuseForeignLockOf } from './access.js';
import type { EditingContext } from '../context.js';
import { confirmationBody } from '../present.js';
import { v1ProblemOf } from '../problems.js';
import { parseOptionalBody } from '../../http/parse.js';
import { numberedPage } from './paging.js';

/** Versions confirmed by a person; integrations poll these and import confirmed ZIPs only. */
export function confirmationRoutes(api: EditingRouter, ctx: EditingContext): void {
  const present = async (projectId: string, revision: number) => {
    const current = await ctx.states.get(projectId, revision);
    return (c: Parameters<typeof confirmationBody>[1]) => confirmationBody(ctx.urls, c, current);
  };

  api.handle('latestConfirmation', async ({ req, res, params }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const latest = await ctx.store.confirmations.latest(project.id);
    if (!latest)
      throw v1ProblemOf('no_confirmation', { detail: 'Nothing has been confirmed yet.' });
    res.json((await present(project.id, project.revision))(latest));
  });

  api.handle('getConfirmation', async ({ req, res, params }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const found = await ctx.store.confirmations.byId(project.id, params.confirmation);
    if (!found) throw v1ProblemOf('not_found', { detail: 'No such confirmation.' });
    res.json((await present(project.id, project.revision))(found));
  });

  api.handle('listConfirmations', async ({ req, res, params, query }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const list = { route: 'listConfirmations', projectId: project.id, from: 'below' } as const;
    const page = await numberedPage(
      ctx,
      list,
      query(),
      (range) => ctx.store.confirmations.list(project.id, range),
      (confirmation) => confirmation.version,
    );
    res.json({
      confirmations: page.shown.map(await present(project.id, project.revision)),
      next_page_url: page.next_page_url,
    });
  });

  api.handle('confirm', async ({ req, res, params }) => {
    const access = await projectFor(ctx, req, params.id, 'edit');
    if (access.auth.via !== 'session') {
      throw v1ProblemOf('confirmation_requires_person', {
        detail:
          'Confirming is a person’s action on the editing screen; an API token cannot confirm.',
      });
    }
    // Like every write, refused while another client holds the lock; it needs none of its own.
    await refuseForeignLockOf(ctx, req, access);
    holderOf(req, access.auth);
    const { note } = await parseOptionalBody(req, res, v1.Confirm, ctx.jsonLimitBytes);
    const confirmed = await ctx.changes.confirm(params.id, access.auth.account, note ?? null);
    const current = await ctx.changes.current(params.id);
    res
      .status(201)
      .location(ctx.urls.confirmation(params.id, confirmed.id))
      .json(confirmationBody(ctx.urls, confirmed, current));
  });
}
