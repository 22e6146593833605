import type { AssetRouter } from '../../openapi/api-router.js';
import type { AssetContext } from '../context.js';
import { duplicateAsset } from '../service/create.js';
import { deleteForGood, setState } from '../service/lifecycle.js';
import { copyInto } from '../service/revise.js';
import { assetWriteRoute } from './write.js';

/** Copies of an asset, and its moves between active, archived, the trash, and gone for good. */
export function lifecycleRoutes(api: AssetRouter, ctx: AssetContext): void {
  assetWriteRoute(api, ctx, { name: 'duplicate', access: 'read' }, (on) => duplicateAsset(ctx, on));
  assetWriteRoute(api, ctx, { name: 'copyInto', access: 'write' }, (on) => copyInto(ctx, on));
  assetWriteRoute(api, ctx, { name: 'setState', access: 'write' }, (on) => setState(ctx, on));
  assetWriteRoute(api, ctx, { name: 'deleteAsset', access: 'write' }, (on) =>
    deleteForGood(ctx, on),
  );
}
