import { listSchemas } from '@galley/core';
import { callerOf } from '../context.js';
import type { AssetContext } from '../context.js';
import { putRequestBody } from '../../http/raw-body.js';
import type { AssetRouter } from '../../openapi/api-router.js';
import { schemaRoute } from '../../openapi/schema-route.js';
import { uploadLost } from '../service/write-asset.js';

/** A blob is at most 256 MiB, counted while streaming (decisions §6). */
export const MAX_BLOB_BYTES = 256 * 1024 * 1024;

export function blobRoutes(api: AssetRouter, ctx: AssetContext): void {
  api.handle('uploadBlob', async ({ req, res }) => {
    const { accountNumber } = callerOf(req);
    const { sha256, size } = await putRequestBody(req, ctx.store.bytes, {
      maxBytes: MAX_BLOB_BYTES,
    });
    // Recorded where no release can delete the bytes: one may have since they were stored.
    const { created } = await ctx.store.transaction(async (tx) => {
      if ((await tx.content.keep([sha256])).length > 0) throw uploadLost();
      return tx.blobs.record({ accountNumber, sha256, size });
    });
    res.status(created ? 201 : 200).json({ sha256, size });
  });

  api.handle('listSchemas', ({ req, res }) => {
    callerOf(req);
    res.json({ schemas: listSchemas() });
  });

  schemaRoute(api);
}
