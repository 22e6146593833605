import { schemaUri, v2 } from '@galley/core';
import type { StoreScope } from '@galley/store';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { streamMultipart } from '../../http/multipart.js';
import { parseInput, validationFailed } from '../../http/parse.js';
import { problemOf } from '../../http/problem.js';
import type { ApiRouter } from '../../openapi/api-router.js';
import type { V2Context } from '../context.js';
import type { Commit } from '../idempotency.js';
import { callerOf, readableAsset, revisionOf, visibleOwners } from '../context.js';
import type { StagedFile } from '../file-specs.js';
import { stageBytes, stageSpecs, stageStored } from '../file-specs.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { nextPageUrl } from '../../http/paging.js';
import { AssetCursor } from '../pages.js';
import { assetListItem, assetBody } from '../views.js';
import { uploadPath } from '../upload-path.js';
import { MAX_BLOB_BYTES } from './blobs.js';
import { assetAnswer, createAsset, releaseUnused, uploadLost } from '../write-asset.js';
import type { Caller } from './write.js';
import { assetWrite } from './write.js';
import { created, responses } from './responses.js';

export const AssetParams = z.object({ id: v2.AssetId });
/** The multipart form of POST /assets, as documented: its fields, and the file itself. */
const UploadForm = v2.UploadAssetFields.extend({
  file: z.string().meta({ contentMediaType: 'application/octet-stream' }),
});

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
  ctx: V2Context,
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
async function upload(ctx: V2Context, req: Request, res: Response, caller: Caller) {
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

export function assetRoutes(api: ApiRouter, ctx: V2Context): void {
  const { store } = ctx;
  api.route(
    {
      method: 'get',
      path: '/assets',
      summary: 'List assets',
      description: "The caller's assets and the service's fonts, one page at a time.",
      query: v2.AssetListQuery,
      responses: {
        200: { description: 'A page of assets', schema: v2.AssetList },
        422: responses[422],
      },
    },
    async ({ req, res, query }) => {
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
    },
  );

  api.route(
    {
      method: 'post',
      path: '/assets',
      summary: 'Register an asset',
      description:
        'JSON with file specifications, or (image and font) multipart/form-data with the fields ' +
        'request_key, kind, title (UTF-8 text) and the file part `file`, whose path is made from ' +
        'its file name: the base name, accents folded, lower case, other characters `-` ' +
        '(`Café Logo.PNG` → `cafe-logo.png`). Productions take medium and media_contract.',
      body: v2.CreateAsset,
      bodyVerbatim: ['files.*.json'],
      requestBody: {
        contentType: 'multipart/form-data',
        description: 'JSON file specifications, or an image or font as the multipart part `file`',
        schema: UploadForm,
      },
      responses: {
        201: {
          description: 'The asset with revision 1 and its inspection',
          schema: v2.AssetEnvelope,
          headers: created.asset,
        },
        ...responses.write,
        413: responses[413],
        503: responses[503],
      },
    },
    async ({ req, res, body }) => {
      const caller = callerOf(req);
      if (req.is('multipart/form-data')) return upload(ctx, req, res, caller);
      const input = await body();
      await ctx.idempotency.run(
        req,
        res,
        { ...caller, key: input.request_key, body: input },
        (commit) => createFromJson(ctx, commit, caller, input),
      );
    },
  );

  api.route(
    {
      method: 'get',
      path: '/assets/{id}',
      summary: 'Read an asset',
      params: AssetParams,
      query: v2.AssetQuery,
      responses: {
        200: { description: 'The current (or given) revision', schema: v2.AssetEnvelope },
        404: responses[404],
        422: responses[422],
      },
    },
    async ({ req, res, params, query }) => {
      const asset = await readableAsset(store, params.id, callerOf(req).owner);
      const revision = await revisionOf(store, asset, query().revision);
      const files = await store.assets.files(asset.id, revision.number);
      res.json({ asset: assetBody(asset, revision, files) });
    },
  );

  api.route(
    {
      method: 'patch',
      path: '/assets/{id}',
      summary: 'Rename an asset',
      description: 'Changes the title only; the revision number does not increase.',
      params: AssetParams,
      body: v2.PatchAsset,
      responses: {
        200: { description: 'The renamed asset', schema: v2.AssetEnvelope },
        ...responses.assetWrite,
      },
    },
    ({ req, res, params, body }) =>
      assetWrite(
        ctx,
        { req, res, id: params.id, access: 'write', body },
        ({ asset, body, commit }) =>
          commit(async (tx) => {
            await tx.assets.rename(asset.id, body.title);
            return assetAnswer(tx, asset.id);
          }),
      ),
  );
}
