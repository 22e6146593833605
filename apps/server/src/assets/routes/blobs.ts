import { listSchemas } from '@galley/core';
import { putRequestBody } from '../../http/raw-body.js';
import type { AssetRouter } from '../../openapi/api-router.js';
import { schemaRoute } from '../../openapi/schema-route.js';
import type { AssetContext } from '../context.js';
import { MAX_BLOB_BYTES, recordBlob } from '../service/uploads.js';
import { callerOf } from './caller.js';

export function blobRoutes(api: AssetRouter, ctx: AssetContext): void {
  api.handle('uploadBlob', async ({ req, res }) => {
    const { accountNumber } = callerOf(req);
    const { sha256, size } = await putRequestBody(req, ctx.store.bytes, {
      maxBytes: MAX_BLOB_BYTES,
    });
    const { created } = await recordBlob(ctx.store, { accountNumber, sha256, size });
    res.status(created ? 201 : 200).json({ sha256, size });
  });

  api.handle('listSchemas', ({ req, res }) => {
    callerOf(req);
    res.json({ schemas: listSchemas() });
  });

  schemaRoute(api);
}
