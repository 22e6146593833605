import { decodeCursor, nextPageUrl, pageOf } from '../../http/paging.js';
import type { AssetRouter } from '../../openapi/api-router.js';
import type { AssetContext } from '../context.js';
import { refOf } from '../present.js';
import { readableAsset } from '../service/access.js';
import { eraseContent } from '../service/lifecycle.js';
import { reviseAsset } from '../service/revise.js';
import { callerOf } from './caller.js';
import { RevisionCursor } from './cursors.js';
import { assetWriteRoute } from './write.js';

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

  assetWriteRoute(api, ctx, { name: 'createRevision', access: 'write' }, (on) =>
    reviseAsset(ctx, on),
  );
  assetWriteRoute(api, ctx, { name: 'eraseContent', access: 'write' }, (on) =>
    eraseContent(ctx, on, on.params.n),
  );
}
