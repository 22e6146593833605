import { v1 } from '@galley/core';
import type { Request } from 'express';
import { parseNoBody } from '../../http/parse.js';
import type { ApiRouter } from '../../openapi/api-router.js';
import { editingFor, requireOwnLock } from '../access.js';
import type { V1Context } from '../context.js';
import { v1ProblemOf } from '../problems.js';
import { PageParams } from '../schemas.js';
import type { SaveService } from '../services/save-service.js';
import { checkFailure, projectBusy, writeResponses } from './projects.js';

const tags = ['Page editing'];
/** 409: the refusals of the editing flow, each where it can happen. */
const conflict = (...codes: string[]) => ({ description: codes.join('; ') });
const lockRequired = '`lock_required`: take the project’s lock first';
const stale = '`stale_draft_token`: send the newest draft token';
const unusable = '`draft_unusable`: a draft that can no longer be rebuilt (discard it)';

/** Steps 2 to 4 of the editing flow: drafts, operations, draft undo/redo, save. */
export function draftRoutes(api: ApiRouter, ctx: V1Context, saves: SaveService): void {
  const editing = (req: Request, pageId: string) => editingFor(ctx, req, pageId);

  api.route(
    {
      method: 'get',
      path: '/pages/{page}/draft',
      summary: 'Open the caller’s draft of the page (or return the open one)',
      tags,
      editorClient: true,
      params: PageParams,
      responses: writeResponses({
        200: { description: 'The draft with its newest token', schema: v1.DraftAnswer },
        409: conflict(lockRequired, unusable),
      }),
    },
    async ({ req, res, params }) => {
      const { access, lock, holder, draft } = await editing(req, params.page);
      requireOwnLock(lock, holder);
      const view = await ctx.drafts.exclusive(access, holder, () =>
        ctx.drafts.open(access, holder, draft),
      );
      // JSON text already (its page members may come from a worker): sent as res.json would.
      res.set('Content-Type', 'application/json; charset=utf-8').send(view.json);
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/pages/{page}/draft',
      summary: 'Discard the caller’s draft of the page',
      tags,
      editorClient: true,
      params: PageParams,
      responses: writeResponses({
        204: { description: 'Discarded (or there was none)' },
        409: conflict(lockRequired),
      }),
    },
    async ({ req, res, params }) => {
      const { access, lock, holder, draft } = await editing(req, params.page);
      requireOwnLock(lock, holder);
      await ctx.drafts.exclusive(access, holder, () => ctx.drafts.discard(access, holder, draft));
      res.status(204).end();
    },
  );

  api.route(
    {
      method: 'get',
      path: '/pages/{page}/draft/log',
      summary: 'The operations in effect of the caller’s open draft, to apply again elsewhere',
      description:
        'The operations applied and not undone, oldest first, and the revision the draft is ' +
        'based on: what a stale draft needs to be applied again on a newer revision.',
      tags,
      editorClient: true,
      params: PageParams,
      responses: writeResponses({
        200: { description: 'The draft’s operations in effect', schema: v1.DraftLogAnswer },
        404: { description: 'No such page, or the caller has no open draft of it (`no_draft`)' },
        409: conflict(lockRequired),
      }),
    },
    async ({ req, res, params }) => {
      const { access, lock, holder, draft } = await editing(req, params.page);
      requireOwnLock(lock, holder);
      const row = await ctx.drafts.newest(access, holder, draft);
      if (!row)
        throw v1ProblemOf('no_draft', { detail: 'This client has no open draft of the page.' });
      const operations = await ctx.drafts.operationsInEffect(row);
      res.json({ base_revision: row.baseRevision, operations });
    },
  );

  api.route(
    {
      method: 'post',
      path: '/pages/{page}/operations',
      summary: 'Apply one operation to the draft (not checked; checks run at save)',
      tags,
      editorClient: true,
      params: PageParams,
      body: v1.OperationRequest,
      responses: writeResponses({
        200: { description: 'The new draft token and what changed', schema: v1.OperationAnswer },
        409: conflict(lockRequired, stale, unusable),
      }),
    },
    async ({ req, res, params, body }) => {
      const { access, lock, holder, draft } = await editing(req, params.page);
      const request = await body();
      requireOwnLock(lock, holder);
      res.json(
        await ctx.drafts.exclusive(access, holder, () =>
          ctx.drafts.operate(access, holder, draft, request),
        ),
      );
    },
  );

  for (const direction of ['undo', 'redo'] as const) {
    api.route(
      {
        method: 'post',
        path: `/pages/{page}/draft/${direction}`,
        summary: `${direction === 'undo' ? 'Undo' : 'Redo'} one operation of the draft (no body)`,
        tags,
        editorClient: true,
        params: PageParams,
        requestBody: {
          contentType: 'application/json',
          required: false,
          description: 'None, or `{}`',
        },
        responses: writeResponses({
          200: { description: 'Answered like an operation', schema: v1.OperationAnswer },
          409: conflict(lockRequired, `\`nothing_to_${direction}\``, unusable),
        }),
      },
      async ({ req, res, params }) => {
        const { access, lock, holder, draft } = await editing(req, params.page);
        await parseNoBody(req, res, ctx.jsonLimitBytes);
        requireOwnLock(lock, holder);
        res.json(
          await ctx.drafts.exclusive(access, holder, () =>
            ctx.drafts.move(access, holder, draft, direction),
          ),
        );
      },
    );
  }

  api.route(
    {
      method: 'put',
      path: '/pages/{page}/operations',
      summary: 'Save the draft as a new revision (the checks must pass)',
      tags,
      editorClient: true,
      params: PageParams,
      body: v1.SaveRequest,
      responses: writeResponses({
        200: { description: 'The saved revision', schema: v1.Saved },
        409: conflict(
          lockRequired,
          stale,
          '`revision_conflict`: the page changed since the draft’s base (`current_revision`)',
          '`commit_id_reused`: the commit_id already saved another page',
          unusable,
        ),
        422: checkFailure,
        503: projectBusy,
      }),
    },
    async ({ req, res, params, body }) => {
      const { access, lock, holder, draft } = await editing(req, params.page);
      const request = await body();
      const saved = await ctx.drafts.exclusive(access, holder, async () => {
        const replay = await saves.replay(access, request.commit_id);
        if (replay) return replay;
        requireOwnLock(lock, holder);
        const row = await ctx.drafts.row(access, holder, draft);
        if (row.token !== request.draft_token) {
          // The same save, finished meanwhile by another process, may have moved the token.
          const finished = await saves.replay(access, request.commit_id);
          if (finished) return finished;
          throw v1ProblemOf('stale_draft_token', { detail: 'Save with the newest draft token.' });
        }
        return saves.save(access, access.auth.account, row, request);
      });
      res.json(saved);
    },
  );
}
