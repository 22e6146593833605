import { v1 } from '@galley/core';
import { stillAuthenticated } from '../../auth/authenticate.js';
import type { ApiRouter } from '../../openapi/api-router.js';
import { pageFor } from '../access.js';
import type { V1Context } from '../context.js';
import { v1ProblemOf } from '../problems.js';
import { PageParams, PageRevisionParams } from '../schemas.js';

const notFound = { description: 'No such page, or the caller is not a member' };

/** Read-only views of a page: a saved revision's HTML, and live changes as they happen. */
export function pageRoutes(api: ApiRouter, ctx: V1Context): void {
  api.route(
    {
      method: 'get',
      path: '/pages/{page}/revisions/{revision}',
      summary: 'The page’s HTML as saved at a revision (any member)',
      tags: ['History'],
      params: PageRevisionParams,
      responses: {
        200: { description: 'The page as saved at that revision', schema: v1.PageRevision },
        404: {
          description:
            'No such page, the caller is not a member, or the page had no file at that ' +
            'revision, or the revision does not exist (`no_revision`)',
        },
      },
    },
    async ({ req, res, params }) => {
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
    },
  );

  api.route(
    {
      method: 'get',
      path: '/pages/{page}/events',
      summary: 'Live changes of the page: its lock, the holder’s draft, saves (server-sent events)',
      description: [
        'A `text/event-stream` for read-only views (any member; an API token or the screen’s session). Each event’s `data:` is one line of JSON:',
        [
          '- `lock` `{lock: Lock | null}`: on connect and whenever the lock changes (taken, renewed, released, expired);',
          '- `draft` `{sequence, base_revision, html, by: {name}}`: the lock holder’s draft of the page, on connect when there is one and whenever it changes (operation, undo, redo, save); when the holder discards it, the saved page (`sequence` 0, on the current revision);',
          '- `saved` `{revision}`: the project’s saved revision changed.',
        ].join('\n'),
        'A comment line comes every 15 seconds. Changes made through this process arrive at once, others within about a second. The stream ends when the server stops, the page’s project is deleted, or the caller loses access (checked every 15 seconds); connect again to resume (the first events tell the state).',
      ].join('\n\n'),
      tags: ['Page editing'],
      params: PageParams,
      responses: {
        200: {
          description: 'The event stream; each event is one of these',
          contentType: 'text/event-stream',
          schema: v1.PageEvent,
        },
        404: notFound,
        429: {
          description:
            '`too_many_streams`: the account has its most streams open (see Retry-After); or too many requests',
        },
        503: { description: '`stopping`: the server is stopping; connect again' },
      },
    },
    async ({ req, res, params }) => {
      const { project, page, auth } = await pageFor(ctx, req, params.page);
      const account = auth.account.accountNumber;
      ctx.events.open({
        res,
        page: { id: page.id, projectId: project.id },
        accountNumber: account,
        head: req.method === 'HEAD',
        allowed: async () =>
          (await stillAuthenticated(ctx.store, req, account)) &&
          (await ctx.store.projects.access(project.id, account)) !== null,
      });
    },
  );
}
