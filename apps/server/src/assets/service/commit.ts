import type { AssetKind } from '@galley/core';
import type { AssetRecord, BaseRevision, StoreScope } from '@galley/store';
import { newId } from '@galley/store';
import type { AssetContext } from '../context.js';
import { assetLocation, createdAnswer } from '../present.js';
import type { Answer } from '../present.js';
import { assetNotFound, revisionConflict } from '../problems.js';
import { announce } from './asset-events.js';
import { NewContents } from './contents.js';
import type { RevisionPlan } from './plan.js';
import type { Claim, Committed } from './run-once.js';
import type { Base, Sources } from './sources.js';

/** What a planned revision becomes: a new asset (revision 1), or the next revision of one. */
export type Target =
  { create: { owner: string; kind: AssetKind; title: string } } | { revise: Base };

/**
 * Records a planned revision: puts the bytes the request carried, then in one transaction with
 * the storing of its answer keeps every content it names, records the asset (or its next
 * revision) and answers 201 with Location. If the transaction fails, the bytes the request added
 * that nothing uses are deleted again, so a refused write leaves nothing behind.
 */
export async function commitRevision(
  ctx: AssetContext,
  claim: Claim,
  plan: RevisionPlan,
  target: Target,
  sources: Sources,
): Promise<Committed> {
  const base = 'revise' in target ? target.revise : undefined;
  const contents = await NewContents.put(ctx, plan.fresh);
  let committed: { done: Committed; asset: AssetRecord };
  try {
    committed = await ctx.store.transaction(async (tx) => {
      await claim.hold(tx);
      await contents.keep(tx, plan.files, { sources, ...(base && { base }) }, base && from(base));
      const written =
        'revise' in target
          ? await addRevision(tx, ctx.apiUrl, plan, target.revise)
          : await addAsset(tx, ctx.apiUrl, plan, target.create);
      return { done: await claim.answer(tx, written.answer), asset: written.asset };
    });
  } catch (error) {
    await contents.discard();
    throw error;
  } finally {
    contents.release();
  }
  const { asset } = committed;
  ctx.revisionFiles.remember(asset.id, asset.currentRevision, plan.files);
  announce(ctx.events, claim.accountNumber, {
    kind: 'asset.revised',
    data: { asset_id: asset.id, revision: asset.currentRevision },
  });
  return committed.done;
}

interface Written {
  asset: AssetRecord;
  answer: Answer;
}

async function addAsset(
  tx: StoreScope,
  apiUrl: string,
  plan: RevisionPlan,
  create: Extract<Target, { create: unknown }>['create'],
): Promise<Written> {
  const asset = await tx.assets.create({
    id: newId('ast'),
    ...create,
    files: plan.files,
    inspection: plan.inspection,
  });
  return { asset, answer: createdAnswer(asset, plan, assetLocation(apiUrl, asset.id)) };
}

/** The revision a change is based on, as the content repository keeps it (see `keep`). */
function from(base: Base): BaseRevision {
  return { assetId: base.asset.id, number: base.number, sha256s: base.files.map((f) => f.sha256) };
}

async function addRevision(
  tx: StoreScope,
  apiUrl: string,
  plan: RevisionPlan,
  base: Base,
): Promise<Written> {
  const number = base.number + 1;
  const result = await tx.assets.addRevision({
    assetId: base.asset.id,
    number,
    put: plan.put,
    remove: plan.remove,
    inspection: plan.inspection,
  });
  if (!result.ok) {
    // Deleted for good by a request that came first: as if this one had come after it.
    throw result.code === 'gone' ? assetNotFound() : revisionConflict(result.currentRevision);
  }
  const location = assetLocation(apiUrl, base.asset.id, number);
  return { asset: result.asset, answer: createdAnswer(result.asset, plan, location) };
}
