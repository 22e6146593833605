import { v2 } from '@galley/core';
import { z } from 'zod';
import { API_CONTENT_POLICY } from '../../http/answer-headers.js';
import { problemOf } from '../../http/problem.js';
import type { ApiRouter } from '../../openapi/api-router.js';
import type { V2Context } from '../context.js';
import { callerOf, readableAsset, revisionOf } from '../context.js';
import { contentTypeOf } from '../media-types.js';
import { v2ProblemOf } from '../problems.js';
import { parseRange } from '../range.js';
import { noneMatchIncludes, streamBody } from '../../http/conditional.js';
import { responses } from './responses.js';

/** Express gives a `*path` wildcard as its segments; the file path is them joined by `/`. */
const FileParams = z.object({
  id: v2.AssetId,
  path: z.preprocess(
    (value) => (Array.isArray(value) ? value.join('/') : value),
    z.string().min(1),
  ),
});

/** `attachment; filename="…"` with an RFC 8187 form for names beyond plain ASCII. */
function attachment(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileRoutes(api: ApiRouter, ctx: V2Context): void {
  const { store } = ctx;
  api.route(
    {
      method: 'get',
      path: '/assets/{id}/files/{path}',
      expressPath: '/assets/:id/files/*path',
      summary: 'Read a file of a revision',
      description:
        'The path keeps its slashes (`/files/canvas/main.png`). Supports a single `Range` ' +
        '(206, or 416 when it cannot be met); `download=1` answers as an attachment.',
      params: FileParams,
      query: v2.FileQuery,
      requestHeaders: {
        Range: 'One byte range, `bytes=start-end`, `bytes=start-` or `bytes=-suffix`',
        'If-Range': 'The ETag the range belongs to: another answers the whole file',
        'If-None-Match': 'ETags (or `*`): 304 when the file has one of them',
      },
      responses: {
        200: { description: 'The file, as its own media type', contentType: '*/*' },
        206: { description: 'The requested range, as the file’s media type', contentType: '*/*' },
        304: { description: 'Not modified: `If-None-Match` named the file’s ETag' },
        404: responses[404],
        410: responses[410],
        416: { description: 'The range cannot be met' },
      },
    },
    async ({ req, res, params, query }) => {
      const asset = await readableAsset(store, params.id, callerOf(req).owner);
      const q = query();
      const revision = await revisionOf(store, asset, q.revision);
      const file = await store.assets.file(asset.id, revision.number, params.path);
      if (!file)
        throw problemOf('not_found', {
          detail: `No file ${params.path} in ${asset.id}@${revision.number}.`,
        });
      if (revision.erasedAt !== null) {
        throw v2ProblemOf('content_erased', {
          detail: `The content of ${asset.id}@${revision.number} was erased.`,
        });
      }
      const etag = `"${file.sha256}"`;
      res.setHeader('ETag', etag);
      res.setHeader('Accept-Ranges', 'bytes');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // Stored HTML or SVG may hold scripts or load other origins: opened directly, it runs in
      // no origin (decisions §6b) and loads nothing, like every other /api/ answer.
      res.setHeader('Content-Security-Policy', `${API_CONTENT_POLICY}; sandbox`);
      if (q.download === '1') res.setHeader('Content-Disposition', attachment(file.path));
      if (noneMatchIncludes(req.get('if-none-match'), etag)) {
        res.status(304).end();
        return;
      }
      const ifRange = req.get('if-range');
      const range =
        ifRange === undefined || ifRange === etag
          ? parseRange(req.get('range'), file.size)
          : { kind: 'whole' as const };
      if (range.kind === 'unsatisfiable') {
        res.setHeader('Content-Range', `bytes */${file.size}`);
        throw v2ProblemOf('range_not_satisfiable', { detail: `The file has ${file.size} bytes.` });
      }
      const part = range.kind === 'part' ? range : undefined;
      const stream = await store.bytes.read(file.sha256, part);
      if (!stream)
        throw v2ProblemOf('content_erased', { detail: `The content of ${file.path} is gone.` });
      res.status(part ? 206 : 200).setHeader('Content-Type', contentTypeOf(file.mediaType));
      res.setHeader('Content-Length', String(part ? part.end - part.start + 1 : file.size));
      if (part) res.setHeader('Content-Range', `bytes ${part.start}-${part.end}/${file.size}`);
      await streamBody(stream, res);
    },
  );
}
