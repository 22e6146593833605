import { stillAuthenticated } from '../../auth/authenticate.js';
import type { EditingRouter } from '../../openapi/api-router.js';
import { pageFor } from './access.js';
import type { EditingContext } from '../context.js';
import { v1ProblemOf } from '../problems.js';

/** Read-only views of a page: a saved revision's HTML, and live changes as they happen. */
export function pageRoutes(api: EditingRouter, ctx: EditingContext): void {
  api.handle('pageRevision', async ({ req, res, params }) => {
    const { project, page } = await pageFor(ctx, req, params.page);
    const { revision } = params;
    const html = await ctx.pages.html({
      projectId: project.id,
      current: project.revision,
      revision,
      file: page.file,
    });
    if (html === null) {
      throw v1ProblemOf('no_revision', {
        detail: `${page.file} has no saved version at revision ${revision}.`,
      });
    }
    res.json({ page, revision, html });
  });

  api.handle('pageEvents', async ({ req, res, params }) => {
    const { project, page, auth } = await pageFor(ctx, req, params.page);
    const account = auth.account.accountNumber;
    const stream = ctx.pageStreams.open({
      res,
      accountNumber: account,
      head: req.method === 'HEAD',
      allowed: async () =>
        (await stillAuthenticated(ctx.store, req, account)) &&
        (await ctx.store.projects.access(project.id, account)) !== null,
    });
    if (stream) res.once('close', ctx.events.watch({ id: page.id, projectId: project.id }, stream));
  });
}
