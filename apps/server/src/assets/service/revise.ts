// Writes that add a revision to an asset: files put and removed (POST …/revisions), and
// another asset's files copied in (POST …/copies).
import type { AssetKind, v2 } from '@galley/core';
import type { AssetRecord } from '@galley/store';
import type { z } from 'zod';
import type { AssetContext } from '../context.js';
import { revisionConflict, validationFailed } from '../problems.js';
import { ownerOf } from './access.js';
import { commitRevision } from './commit.js';
import { stageSpecs, stageStored } from './file-specs.js';
import type { StagedFile } from './file-specs.js';
import { planRevision, rejectInvalidPaths } from './plan.js';
import type { RevisionChange } from './plan.js';
import type { Claim, Committed, WriteOnAsset } from './run-once.js';
import { copySource, requireKeptContent } from './sources.js';
import type { Base, Sources } from './sources.js';

/** POST /assets/{id}/revisions: files put (from specifications) and removed. */
export function reviseAsset(ctx: AssetContext, on: WriteOnAsset<z.output<typeof v2.NewRevision>>) {
  const { request, asset, body } = on;
  return ctx.idempotency.runOnce(request, async (claim) => {
    const sources = { specs: body.put, accountNumber: request.accountNumber, field: 'put' };
    const put = await stageSpecs(ctx.store, request.accountNumber, body.put, 'put');
    const remove = body.remove.map((path, i) => ({ path, field: `remove.${i}` }));
    const change = { put, remove, field: 'put' };
    return nextRevision(ctx, claim, asset, body.base_revision, change, sources);
  });
}

/** POST /assets/{id}/copies: another asset's revision copied under `to` in a production. */
export function copyInto(ctx: AssetContext, on: WriteOnAsset<z.output<typeof v2.CopyAsset>>) {
  const { request, asset, body } = on;
  return ctx.idempotency.runOnce(request, async (claim) => {
    if (asset.kind !== 'production') {
      throw validationFailed([
        ['id', `copies go into productions; ${asset.id} is an ${asset.kind}`],
      ]);
    }
    const sources = { copyOf: body.source, owner: ownerOf(request.accountNumber) };
    const files = await copySource(ctx.store, sources.owner, sources.copyOf);
    const put = files.map((f) => ({
      ...stageStored(`${body.to}${f.path}`, f.sha256, f.size, 'source'),
      schemaUri: f.schemaUri,
    }));
    const change = { put, remove: [], field: 'to' };
    return nextRevision(ctx, claim, asset, body.base_revision, change, sources);
  });
}

/**
 * Adds a revision on `baseRevision`: 201 with the new revision and its inspection. A base that
 * is not the current one is 409 with `current_revision`, after the change is planned on that
 * base (if it exists and its content is kept; else after its paths are judged alone) so that
 * invalid input answers 422 first (decisions §8: the request itself before the state conflict).
 */
async function nextRevision(
  ctx: AssetContext,
  claim: Claim,
  asset: AssetRecord,
  baseRevision: number,
  change: Pick<RevisionChange, 'remove' | 'field'> & { put: StagedFile[] },
  sources: Sources,
): Promise<Committed> {
  const stale = baseRevision !== asset.currentRevision;
  if (stale && !(await judgeableBase(ctx, asset, baseRevision))) {
    rejectInvalidPaths(change);
    throw revisionConflict(asset.currentRevision);
  }
  const files = await ctx.revisionFiles.files(ctx.store, asset.id, baseRevision);
  const changed = new Set([...change.put.map((f) => f.path), ...change.remove.map((r) => r.path)]);
  const base: Base = { asset, number: baseRevision, files, changed };
  if (!stale) await requireKeptContent(ctx.store, base);
  const planned = { ...change, kind: asset.kind as AssetKind, base: files, now: ctx.clock.now() };
  const plan = await planRevision(ctx, planned, { sources, base });
  if (stale) throw revisionConflict(asset.currentRevision);
  return commitRevision(ctx, claim, plan, { revise: base }, sources);
}

/**
 * Whether a stale `base_revision` names an earlier revision whose change can still be judged:
 * it exists and its content was not erased.
 */
async function judgeableBase(ctx: AssetContext, asset: AssetRecord, baseRevision: number) {
  if (baseRevision > asset.currentRevision) return false;
  const revision = await ctx.store.assets.revision(asset.id, baseRevision);
  return revision?.erasedAt === null;
}
