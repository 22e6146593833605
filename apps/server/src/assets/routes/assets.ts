import { schemaUri, v2 } from '@galley/core';
import type { StoreScope } from '@galley/store';
import type { Request, Response } from 'express';
import { streamMultipart } from '../../http/multipart.js';
import { parseInput, validationFailed } from '../../http/parse.js';
import { problemOf } from '../../http/problem.js';
import type { AssetRouter } from '../../openapi/api-router.js';
import type { AssetContext } from '../context.js';
import type { Commit } from '../service/run-once.js';
import { callerOf, readableAsset, revisionOf, visibleOwners } from '../context.js';
import type { StagedFile } from '../service/file-specs.js';
import { stageBytes, stageSpecs, stageStored } from '../service/file-specs.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { nextPageUrl } from '../../http/paging.js';
import { AssetCursor } from './cursors.js';
import { assetListItem, assetBody } from '../present.js';
import { uploadPath } from '../service/upload-path.js';
import { MAX_BLOB_BYTES } from './blobs.js';
import { assetAnswer, createAsset, releaseUnused, uploadLost } from '../service/write-asset.js';
import type { Caller } from './write.js';
import { assetWrite } from './write.js';

function productionFile(input: Extract<v2.CreateAsset, { kind: 'production' }>): StagedFile {
  const json = {
    format: 1,
    title: input.title,
    medium: input.medium,
    media_contract: input.media_contract,
  };
  const bytes = new TextEncoder().encode(`${JSON.stringify(json, null, 2)}\n`);
  return stageBytes('production.json', bytes, 'medium', schemaUri('production', 1));
}

async function createFromJson(
  ctx: AssetContext,
  commit: Commit,
  caller: Caller,
  input: v2.CreateAsset,
) {
  const staged = (scope: StoreScope) =>
    stageSpecs(scope, caller.accountNumber, input.files, 'files');
  const files = await staged(ctx.store);
  if (input.kind !== 'production') {
    return createAsset(ctx, commit, {
      ...caller,
      kind: input.kind,
      title: input.title,
      files,
      field: 'files',
      recheck: staged,
    });
  }
  const taken = files.find((f) => f.path === 'production.json');
  if (taken) {
    throw validationFailed([
      [`${taken.field}.path`, 'production.json is made from medium and media_contract'],
    ]);
  }
  return createAsset(ctx, commit, {
    ...caller,
    kind: 'production',
    title: input.title,
    files: [productionFile(input), ...files],
    field: 'files',
    medium: input.medium,
    recheck: staged,
  });
}

/** Multipart registration of a single-file kind: the file is streamed to the byte store. */
async function upload(ctx: AssetContext, req: Request, res: Response, caller: Caller) {
  let created: string | null = null;
  let committed = false;
  let release = () => {};
  try {
    const { file, fields } = await streamMultipart(
      req,
      { fileField: 'file', maxFileBytes: MAX_BLOB_BYTES },
      async (chunks) => {
        const put = await ctx.store.bytes.put(chunks);
        if (!put.ok) throw problemOf('body_too_large', { detail: 'The file is too large.' });
        if (put.created) created = put.sha256;
        return put;
      },
    );
    const input = parseInput(v2.UploadAssetFields, fields);
    if (!file) throw validationFailed([['file', 'a file part named file is required']]);
    const { sha256, size } = file.result;
    release = ctx.pins.hold([sha256]);
    const path = uploadPath(file.info.filename);
    const body = { ...input, file: { path, sha256 } };
    await ctx.idempotency.run(
      req,
      res,
      { ...caller, key: input.request_key, body },
      async (commit) => {
        const answer = await createAsset(ctx, commit, {
          ...caller,
          kind: input.kind,
          title: input.title,
          files: [{ ...stageStored(path, sha256, size, 'file') }],
          field: 'file',
          recheck: () => Promise.reject(uploadLost()),
        });
        committed = true;
        return answer;
      },
    );
  } finally {
    release();
    if (created && !committed) await releaseUnused(ctx, [created]);
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
    const caller = callerOf(req);
    if (req.is('multipart/form-data')) return upload(ctx, req, res, caller);
    const input = await body();
    await ctx.idempotency.run(
      req,
      res,
      { ...caller, key: input.request_key, body: input },
      (commit) => createFromJson(ctx, commit, caller, input),
    );
  });

  api.handle('getAsset', async ({ req, res, params, query }) => {
    const asset = await readableAsset(store, params.id, callerOf(req).owner);
    const revision = await revisionOf(store, asset, query().revision);
    const files = await store.assets.files(asset.id, revision.number);
    res.json({ asset: assetBody(asset, revision, files) });
  });

  api.handle('renameAsset', ({ req, res, params, body }) =>
    assetWrite(ctx, { req, res, id: params.id, access: 'write', body }, ({ asset, body, commit }) =>
      commit(async (tx) => {
        await tx.assets.rename(asset.id, body.title);
        return assetAnswer(tx, asset.id);
      }),
    ),
  );
}
