import { v2 } from '@galley/core';
import type { Request, Response } from 'express';
import { streamMultipart } from '../../http/multipart.js';
import { decodeCursor, nextPageUrl, pageOf } from '../../http/paging.js';
import { parseInput, validationFailed } from '../../http/parse.js';
import { problemOf } from '../../http/problem.js';
import type { AssetRouter } from '../../openapi/api-router.js';
import type { AssetContext } from '../context.js';
import { assetBody, assetListItem } from '../present.js';
import { readableAsset, revisionOf, visibleOwners } from '../service/access.js';
import { createAsset, registerUpload } from '../service/create.js';
import { renameAsset } from '../service/lifecycle.js';
import { uploadPath } from '../service/upload-path.js';
import { MAX_BLOB_BYTES, UploadedBytes } from '../service/uploads.js';
import { callerOf } from './caller.js';
import { AssetCursor } from './cursors.js';
import { assetWriteRoute, keyedRequest, sendAnswer } from './write.js';

/** Multipart registration of a single-file kind: the file is streamed to the byte store. */
async function upload(ctx: AssetContext, req: Request, res: Response, accountNumber: number) {
  const bytes = new UploadedBytes(ctx);
  try {
    const { file, fields } = await streamMultipart(
      req,
      { fileField: 'file', maxFileBytes: MAX_BLOB_BYTES },
      async (chunks) => {
        const put = await bytes.put(chunks);
        if (!put.ok) throw problemOf('body_too_large', { detail: 'The file is too large.' });
        return put;
      },
    );
    const input = parseInput(v2.UploadAssetFields, fields);
    if (!file) throw validationFailed([['file', 'a file part named file is required']]);
    const { sha256, size } = file.result;
    const path = uploadPath(file.info.filename);
    const request = keyedRequest(req, accountNumber, { ...input, file: { path, sha256 } });
    const { kind, title } = input;
    sendAnswer(res, await registerUpload(ctx, request, bytes, { kind, title, path, sha256, size }));
  } finally {
    await bytes.end();
  }
}

export function assetRoutes(api: AssetRouter, ctx: AssetContext): void {
  const { store } = ctx;
  api.handle('listAssets', async ({ req, res, query }) => {
    const { owner } = callerOf(req);
    const q = query();
    const after = decodeCursor(AssetCursor, q.page);
    if (after && after[0] !== q.sort)
      throw validationFailed([['page', 'the cursor belongs to another sort']]);
    const rows = await store.assets.list({
      owners: visibleOwners(owner),
      state: q.state,
      sort: q.sort,
      limit: q.per_page + 1,
      ...(q.kind ? { kinds: q.kind } : {}),
      ...(q.q ? { q: q.q } : {}),
      ...(q.medium ? { mediumId: q.medium } : {}),
      ...(q.verdict ? { verdict: q.verdict } : {}),
      ...(after ? { after: { key: after[1], id: after[2] } } : {}),
    });
    const { shown, cursor } = pageOf(rows, q.per_page, (last) => [
      q.sort,
      q.sort === 'title' ? last.title.toLowerCase() : last.updatedAt,
      last.id,
    ]);
    res.json({
      assets: shown.map(assetListItem),
      next_page_url: cursor && nextPageUrl(ctx.config.assetBaseUrl, req, cursor),
    });
  });

  api.handle('createAsset', async ({ req, res, body }) => {
    const { accountNumber } = callerOf(req);
    if (req.is('multipart/form-data')) return upload(ctx, req, res, accountNumber);
    const input = await body();
    sendAnswer(res, await createAsset(ctx, keyedRequest(req, accountNumber, input), input));
  });

  api.handle('getAsset', async ({ req, res, params, query }) => {
    const asset = await readableAsset(store, params.id, callerOf(req).owner);
    const revision = await revisionOf(store, asset, query().revision);
    const files = await store.assets.files(asset.id, revision.number);
    res.json({ asset: assetBody(asset, revision, files) });
  });

  assetWriteRoute(api, ctx, { name: 'renameAsset', access: 'write' }, (on) => renameAsset(ctx, on));
}
