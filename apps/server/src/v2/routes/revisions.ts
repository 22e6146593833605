import { StoredNumberText, v2 } from '@galley/core';
import type { StoreScope } from '@galley/store';
import type { ApiRouter } from '../../openapi/api-router.js';
import type { V2Context } from '../context.js';
import { callerOf, readableAsset, revisionOf } from '../context.js';
import { stageSpecs } from '../file-specs.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { nextPageUrl } from '../../http/paging.js';
import { RevisionCursor } from '../pages.js';
import { assetAnswer, commitReleasing, commitRevision } from '../write-asset.js';
import { refOf } from '../views.js';
import { AssetParams } from './assets.js';
import { created, responses } from './responses.js';
import { assetWrite } from './write.js';

const RevisionParams = AssetParams.extend({ n: StoredNumberText });

export function revisionRoutes(api: ApiRouter, ctx: V2Context): void {
  const { store } = ctx;
  api.route(
    {
      method: 'get',
      path: '/assets/{id}/revisions',
      summary: "List an asset's revisions",
      description: 'Newest first, each with the verdict and media of its inspection.',
      params: AssetParams,
      query: v2.RevisionListQuery,
      responses: {
        200: { description: 'A page of revisions', schema: v2.RevisionList },
        404: responses[404],
        422: responses[422],
      },
    },
    async ({ req, res, params, query }) => {
      const asset = await readableAsset(store, params.id, callerOf(req).owner);
      const q = query();
      const before = decodeCursor(RevisionCursor, q.page)?.[1];
      const rows = await store.assets.revisions(asset.id, {
        limit: q.per_page + 1,
        ...(before === undefined ? {} : { before }),
      });
      const { shown, cursor } = pageOf(rows, q.per_page, (last) => ['r', last.number]);
      res.json({
        revisions: shown.map((row) => ({
          number: row.number,
          ref: refOf(asset.id, row.number),
          created_at: row.createdAt,
          erased: row.erased,
          inspection: { verdict: row.verdict, media: row.media },
        })),
        next_page_url: cursor && nextPageUrl(ctx.config.assetBaseUrl, req, cursor),
      });
    },
  );

  api.route(
    {
      method: 'post',
      path: '/assets/{id}/revisions',
      summary: 'Create a revision',
      description: 'Puts and removes files on base_revision, then inspects the new revision.',
      params: AssetParams,
      body: v2.NewRevision,
      bodyVerbatim: ['put.*.json'],
      responses: {
        201: {
          description: 'The new revision and its inspection',
          schema: v2.AssetEnvelope,
          headers: created.revision,
        },
        ...responses.assetWrite,
        410: responses[410],
      },
    },
    ({ req, res, params, body }) =>
      assetWrite(
        ctx,
        { req, res, id: params.id, access: 'write', body },
        async ({ asset, body, caller, commit }) => {
          const staged = (scope: StoreScope) =>
            stageSpecs(scope, caller.accountNumber, body.put, 'put');
          const put = await staged(store);
          const remove = body.remove.map((path, i) => ({ path, field: `remove.${i}` }));
          return commitRevision(ctx, commit, asset, body.base_revision, {
            put,
            remove,
            field: 'put',
            recheck: staged,
          });
        },
      ),
  );

  api.route(
    {
      method: 'delete',
      path: '/assets/{id}/revisions/{n}/content',
      summary: "Erase a revision's content",
      description:
        'The revision stays listed; its files answer 410. Bytes no other revision uses are ' +
        "deleted, and the caller's own uploads (blobs) of these bytes go too: erasing means the " +
        'bytes are gone, so a later `{blob}` naming them answers 422.',
      params: RevisionParams,
      body: v2.EraseContent,
      responses: {
        200: { description: 'The erased revision', schema: v2.AssetEnvelope },
        ...responses.assetWrite,
      },
    },
    ({ req, res, params, body }) =>
      assetWrite(
        ctx,
        { req, res, id: params.id, access: 'write', body },
        async ({ asset, body, caller, commit }) => {
          const revision = await revisionOf(store, asset, params.n);
          return commitReleasing(ctx, commit, async (tx) => {
            const used = await tx.assets.eraseRevision(
              asset.id,
              revision.number,
              body.reason ?? null,
            );
            // The caller's own uploads of these bytes go too: erasing means the bytes are gone.
            await tx.blobs.drop(caller.accountNumber, used);
            return { answer: await assetAnswer(tx, asset.id, revision.number), dropped: used };
          });
        },
      ),
  );
}
