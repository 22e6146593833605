// Writes that register a new asset: from file specifications (POST /assets as JSON), from one
// streamed file (POST /assets as multipart), and as a copy of an asset (POST …/duplicates).
import { schemaUri } from '@galley/core';
import type { AssetKind, MediumRef, v2 } from '@galley/core';
import type { AssetContext } from '../context.js';
import type { Answer } from '../present.js';
import { validationFailed } from '../problems.js';
import { ownerOf } from './access.js';
import { commitRevision } from './commit.js';
import { stageBytes, stageSpecs, stageStored } from './file-specs.js';
import type { StagedFile } from './file-specs.js';
import { planRevision } from './plan.js';
import type { Claim, Committed, KeyedRequest, WriteOnAsset } from './run-once.js';
import { storedFiles } from './sources.js';
import type { Sources } from './sources.js';
import type { UploadedBytes } from './uploads.js';

/** POST /assets with file specifications; a production's production.json is made here. */
export function createAsset(
  ctx: AssetContext,
  request: KeyedRequest,
  input: v2.CreateAsset,
): Promise<Answer> {
  return ctx.idempotency.runOnce(request, async (claim) => {
    const sources = { specs: input.files, accountNumber: request.accountNumber, field: 'files' };
    const files = await stageSpecs(ctx.store, sources.accountNumber, sources.specs, 'files');
    const asset = { owner: ownerOf(request.accountNumber), kind: input.kind, title: input.title };
    if (input.kind !== 'production') return newAsset(ctx, claim, asset, files, 'files', sources);
    const taken = files.find((f) => f.path === 'production.json');
    if (taken) {
      throw validationFailed([
        [`${taken.field}.path`, 'production.json is made from medium and media_contract'],
      ]);
    }
    const all = [productionFile(input), ...files];
    return newAsset(ctx, claim, asset, all, 'files', sources, input.medium);
  });
}

/**
 * POST /assets as multipart: a single-file kind, its file streamed into the byte store already
 * (`upload`, which deletes it again unless this registers it).
 */
export function registerUpload(
  ctx: AssetContext,
  request: KeyedRequest,
  upload: UploadedBytes,
  input: { kind: AssetKind; title: string; path: string; sha256: string; size: number },
): Promise<Answer> {
  upload.hold(input.sha256);
  return ctx.idempotency.runOnce(request, async (claim) => {
    const asset = { owner: ownerOf(request.accountNumber), kind: input.kind, title: input.title };
    const file = stageStored(input.path, input.sha256, input.size, 'file');
    const committed = await newAsset(ctx, claim, asset, [file], 'file', { upload: true });
    upload.registered();
    return committed;
  });
}

/** POST /assets/{id}/duplicates: a new asset of the same kind, from one of its revisions. */
export function duplicateAsset(
  ctx: AssetContext,
  on: WriteOnAsset<{ title: string; revision?: number | undefined }>,
) {
  const { request, asset: source, body } = on;
  return ctx.idempotency.runOnce(request, async (claim) => {
    const sources = { revisionOf: source, number: body.revision, field: 'revision' };
    const files = await storedFiles(ctx.store, source, sources);
    const asset = {
      owner: ownerOf(request.accountNumber),
      kind: source.kind as AssetKind,
      title: body.title,
    };
    const staged = files.map((f) => ({ ...f, field: 'revision' }));
    return newAsset(ctx, claim, asset, staged, 'revision', sources);
  });
}

/** Plans revision 1 of a new asset (inspected), then records it: 201 with Location. */
async function newAsset(
  ctx: AssetContext,
  claim: Claim,
  asset: { owner: string; kind: AssetKind; title: string },
  files: StagedFile[],
  field: string,
  sources: Sources,
  medium?: MediumRef,
): Promise<Committed> {
  const change = {
    kind: asset.kind,
    base: [],
    put: files,
    remove: [],
    field,
    now: ctx.clock.now(),
    ...(medium ? { medium } : {}),
  };
  const plan = await planRevision(ctx, change, { sources });
  return commitRevision(ctx, claim, plan, { create: asset }, sources);
}

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
