// Writes on an asset's rows alone (no new revision): its title, its state, its deletion for
// good, and the erasing of a revision's content.
import type { AssetRecord, StoreScope } from '@galley/store';
import type { AssetContext } from '../context.js';
import { assetAnswer, deletedAnswer } from '../present.js';
import type { Answer } from '../present.js';
import { assetNotFound, v2ProblemOf } from '../problems.js';
import { revisionOf } from './access.js';
import { announce } from './asset-events.js';
import type { AssetChange } from './asset-events.js';
import { releaseDropped } from './contents.js';
import { writeOutShownAnswers } from './run-once.js';
import type { WriteOnAsset } from './run-once.js';

type State = AssetRecord['state'];

/** Decisions §6: archive from active; trash from active or archived; restore from either. */
export const allowedMoves: Readonly<Record<State, readonly State[]>> = {
  archived: ['active'],
  deleted: ['active', 'archived'],
  active: ['archived', 'deleted'],
};

/** PATCH /assets/{id}: a new title, no new revision. */
export function renameAsset(ctx: AssetContext, on: WriteOnAsset<{ title: string }>) {
  const { asset, body } = on;
  const renamed: AssetChange = {
    kind: 'asset.renamed',
    data: { asset_id: asset.id, title: body.title },
  };
  return changeRows(ctx, on, renamed, async (tx) => {
    await tx.assets.rename(asset.id, body.title);
    return { answer: await currentAnswer(tx, asset.id) };
  });
}

/** PUT /assets/{id}/state: a move `allowedMoves` lets the asset make from its state now. */
export function setState(ctx: AssetContext, on: WriteOnAsset<{ state: State }>) {
  const { asset, body } = on;
  const moved: AssetChange = {
    kind: 'asset.state_changed',
    data: { asset_id: asset.id, state: body.state },
  };
  return changeRows(ctx, on, moved, async (tx) => {
    // Decided on the row as it is now, locked: concurrent moves run one after another.
    const current = await tx.assets.lockRow(asset.id);
    if (!current) throw assetNotFound(); // deleted for good meanwhile
    const from = allowedMoves[body.state];
    if (!from.includes(current.state)) {
      throw v2ProblemOf('state_conflict', {
        detail: `An asset cannot move from ${current.state} to ${body.state}.`,
        extras: { state: current.state, allowed_from: from },
      });
    }
    await tx.assets.setState(asset.id, body.state);
    return { answer: await currentAnswer(tx, asset.id) };
  });
}

/** DELETE /assets/{id}: an asset in the trash, for good, with the bytes nothing else uses. */
export function deleteForGood(ctx: AssetContext, on: WriteOnAsset<unknown>) {
  const { asset } = on;
  const removed: AssetChange = {
    kind: 'asset.state_changed',
    data: { asset_id: asset.id, state: 'removed' },
  };
  return changeRows(ctx, on, removed, async (tx) => {
    const current = await tx.assets.lockRow(asset.id);
    if (!current) throw assetNotFound(); // deleted for good meanwhile
    if (current.state !== 'deleted') {
      throw v2ProblemOf('not_in_trash', {
        detail: 'Only an asset in the trash can be deleted for good.',
        extras: { state: current.state },
      });
    }
    await writeOutShownAnswers(tx, asset.id);
    return { answer: deletedAnswer(), dropped: await tx.assets.delete(asset.id) };
  });
}

/**
 * DELETE /assets/{id}/revisions/{n}/content: the revision stays, its bytes go where nothing else
 * uses them, and so do the caller's own uploads of them (erasing means the bytes are gone). No
 * event: the asset's revisions, title and state are what they were.
 */
export function eraseContent(
  ctx: AssetContext,
  on: WriteOnAsset<{ reason?: string | undefined }>,
  number: number,
) {
  const { asset, body, request } = on;
  return changeRows(ctx, on, null, async (tx) => {
    const revision = await revisionOf(tx, asset, number);
    const used = await tx.assets.eraseRevision(asset.id, revision.number, body.reason ?? null);
    await tx.blobs.drop(request.accountNumber, used);
    return { answer: await currentAnswer(tx, asset.id, revision.number), dropped: used };
  });
}

/**
 * Runs `change` once for the request's key, in one transaction with the storing of its answer.
 * Then the bytes it `dropped` (uses it removed) that nothing uses any more are deleted: after the
 * commit, so a write rolled back has deleted nothing. Last, `event` is told.
 */
function changeRows(
  ctx: AssetContext,
  on: WriteOnAsset<unknown>,
  event: AssetChange | null,
  change: (tx: StoreScope) => Promise<{ answer: Answer; dropped?: string[] }>,
): Promise<Answer> {
  return ctx.idempotency.runOnce(on.request, async (claim) => {
    const { committed, dropped } = await ctx.store.transaction(async (tx) => {
      await claim.hold(tx);
      const done = await change(tx);
      return { committed: await claim.answer(tx, done.answer), dropped: done.dropped };
    });
    if (dropped) await releaseDropped(ctx, dropped);
    if (event) announce(ctx.events, on.request.accountNumber, event);
    return committed;
  });
}

/** 200 with a revision of the asset as it is in `scope` (the current one by default). */
async function currentAnswer(scope: StoreScope, assetId: string, number?: number) {
  const asset = await scope.assets.find(assetId);
  // Deleted for good by a request that came first: as if this one had come after it.
  if (!asset) throw assetNotFound();
  const at = number ?? asset.currentRevision;
  const revision = await scope.assets.revision(assetId, at);
  if (!revision) throw new Error(`asset ${assetId} has no revision ${at}`);
  return assetAnswer(asset, revision, await scope.assets.files(assetId, at));
}
