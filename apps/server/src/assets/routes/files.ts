import { API_CONTENT_POLICY } from '../../http/answer-headers.js';
import { noneMatchIncludes, streamBody } from '../../http/conditional.js';
import type { AssetRouter } from '../../openapi/api-router.js';
import type { AssetContext } from '../context.js';
import { v2ProblemOf } from '../problems.js';
import { readableAsset } from '../service/access.js';
import { findFile, readFile } from '../service/files.js';
import { contentTypeOf } from '../service/media-types.js';
import { callerOf } from './caller.js';
import { parseRange } from './range.js';

/** `attachment; filename="…"` with an RFC 8187 form for names beyond plain ASCII. */
function attachment(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileRoutes(api: AssetRouter, ctx: AssetContext): void {
  api.handle('getFile', async ({ req, res, params, query }) => {
    const asset = await readableAsset(ctx.store, params.id, callerOf(req).owner);
    const q = query();
    const file = await findFile(ctx.store, asset, { path: params.path, revision: q.revision });
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
    const stream = await readFile(ctx.store, file, part);
    res.status(part ? 206 : 200).setHeader('Content-Type', contentTypeOf(file.mediaType));
    res.setHeader('Content-Length', String(part ? part.end - part.start + 1 : file.size));
    if (part) res.setHeader('Content-Range', `bytes ${part.start}-${part.end}/${file.size}`);
    await streamBody(stream, res);
  });
}
