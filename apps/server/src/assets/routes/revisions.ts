import type { StoreScope } from '@galley/store';
import type { AssetRouter } from '../../openapi/api-router.js';
import type { AssetContext } from '../context.js';
import { callerOf, readableAsset, revisionOf } from '../context.js';
import { stageSpecs } from '../service/file-specs.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { nextPageUrl } from '../../http/paging.js';
import { RevisionCursor } from './cursors.js';
import { assetAnswer, commitReleasing, commitRevision } from '../service/write-asset.js';
import { refOf } from '../present.js';
import { assetWrite } from './write.js';

export function revisionRoutes(api: AssetRouter, ctx: AssetContext): void {
  const { store } = ctx;
  api.handle('listRevisions', async ({ req, res, params, query }) => {
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
  });

  api.handle('createRevision', ({ req, res, params, body }) =>
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

  api.handle('eraseContent', ({ req, res, params, body }) =>
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
