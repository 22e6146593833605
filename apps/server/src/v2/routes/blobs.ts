import { listSchemas, v2 } from '@galley/core';
import { callerOf } from '../context.js';
import type { V2Context } from '../context.js';
import { putRequestBody } from '../../http/raw-body.js';
import type { ApiRouter } from '../../openapi/api-router.js';
import { schemaRoute } from '../../openapi/schema-route.js';
import { responses } from './responses.js';
import { uploadLost } from '../write-asset.js';

/** A blob is at most 256 MiB, counted while streaming (decisions §6). */
export const MAX_BLOB_BYTES = 256 * 1024 * 1024;

export function blobRoutes(api: ApiRouter, ctx: V2Context): void {
  api.route(
    {
      method: 'post',
      path: '/blobs',
      summary: 'Upload bytes for later use as {blob: sha256}',
      description:
        'The raw body is streamed to storage and hashed on the way. Kept 1 day. Content ' +
        'addressed, so resending the same bytes is safe: 200 when the caller already holds them ' +
        '(of uploads of new bytes sent at once, exactly one is 201).',
      requestBody: { contentType: 'application/octet-stream', description: 'The bytes' },
      responses: {
        201: { description: 'Stored', schema: v2.Blob },
        200: { description: 'The caller already held these bytes', schema: v2.Blob },
        413: responses[413],
        503: responses[503],
      },
    },
    async ({ req, res }) => {
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
    },
  );

  api.route(
    {
      method: 'get',
      path: '/schemas',
      summary: 'List the JSON Schemas of the service',
      responses: { 200: { description: 'Every schema', schema: v2.SchemaList } },
    },
    ({ req, res }) => {
      callerOf(req);
      res.json({ schemas: listSchemas() });
    },
  );

  schemaRoute(api, { authenticated: true });
}
