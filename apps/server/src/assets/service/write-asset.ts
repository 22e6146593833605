import { assetRoutes, pathOf } from '@galley/core';
import type { AssetKind, MediumRef } from '@galley/core';
import type { BaseRevision, StoreScope } from '@galley/store';
import { newId } from '@galley/store';
import { assetNotFound } from '../context.js';
import type { AssetRecord, FileRecord, AssetContext } from '../context.js';
import type { StagedFile } from './file-specs.js';
import { HttpProblem } from '../../http/problem.js';
import type { Answer, Commit, Committed } from './run-once.js';
import { v2ProblemOf } from '../problems.js';
import type { RevisionChange, RevisionPlan } from './plan.js';
import { planRevision, rejectInvalidPaths } from './plan.js';
import { assetBody } from '../present.js';

const PARALLEL_PUTS = 8;

/**
 * Where a write's stored files come from (a blob, another revision, its own upload), resolved
 * again: throws what the request answers in sequence once some of them are gone, so a write that
 * races an erase, an expiry or a deletion answers as if it had come after it.
 */
export type Recheck = (scope: StoreScope) => Promise<unknown>;

/** 503: a streamed upload's bytes, deleted as unused before the request could record them. */
export const uploadLost = () =>
  v2ProblemOf('upload_lost', {
    detail:
      'An erase or expiry deleted these bytes as unused while they were being uploaded; send them again.',
  });

const isContentErased = (error: unknown) =>
  error instanceof HttpProblem && error.code === 'content_erased';

/** Plans a revision; stored files gone meanwhile answer what `recheck` says, as in sequence. */
async function planChecked(ctx: AssetContext, recheck: Recheck, change: RevisionChange) {
  try {
    return await planRevision(ctx, change);
  } catch (error) {
    if (isContentErased(error)) await recheck(ctx.store);
    throw error;
  }
}

/**
 * Stores the bytes the request carried and commits `write` once every content of the new
 * revision is kept (ContentRepository.keep: no release deletes them before the commit). Bytes of
 * the request's own that a release deleted since they were put are put again; other contents gone
 * answer what `recheck` says. If the commit fails, the bytes this request added that nothing uses
 * are removed again, so a refused write leaves nothing behind. `from`: the revision the plan is
 * based on (see `keep`).
 */
async function commitPlanned(
  ctx: AssetContext,
  commit: Commit,
  plan: RevisionPlan,
  recheck: Recheck,
  write: (tx: StoreScope) => Promise<Answer>,
  from?: BaseRevision,
): Promise<Committed> {
  // Each distinct content once; each put is fsynced, and several at once let the disk batch.
  const contents = [...new Map(plan.fresh.map((f) => [f.sha256, f.bytes ?? new Uint8Array()]))];
  const release = ctx.pins.hold(contents.map(([sha256]) => sha256));
  const created: string[] = [];
  const put = async (bytes: Uint8Array) => {
    const stored = await ctx.store.bytes.put([bytes]);
    if (stored.ok && stored.created) created.push(stored.sha256);
  };
  try {
    let next = 0;
    const worker = async () => {
      while (next < contents.length) await put(contents[next++]![1]);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PUTS, contents.length) }, worker));
    return await commit(async (tx) => {
      const missing = new Set(
        await tx.content.keep(
          plan.files.map((f) => f.sha256),
          from,
        ),
      );
      for (const [sha256, bytes] of contents) if (missing.delete(sha256)) await put(bytes);
      if (missing.size > 0) {
        await recheck(tx);
        const file = plan.files.find((f) => missing.has(f.sha256))!;
        throw v2ProblemOf('content_erased', { detail: `The content of ${file.path} is gone.` });
      }
      return write(tx);
    });
  } catch (error) {
    release();
    await releaseUnused(ctx, created);
    throw error;
  } finally {
    release();
  }
}

/** Deletes bytes nothing uses any more (after a refused write or a failed upload). */
export async function releaseUnused(
  ctx: Pick<AssetContext, 'store' | 'pins'>,
  sha256s: readonly string[],
): Promise<void> {
  const free = sha256s.filter((sha256) => !ctx.pins.held(sha256));
  if (free.length) await ctx.store.content.release(free);
}

/**
 * Commits a write that drops uses of bytes (`write` answers them beside its answer), then
 * deletes those nothing uses any more: after the commit, so a write rolled back has deleted
 * nothing. A failed deletion is logged, not answered: the write stands and the bytes stay.
 */
export async function commitReleasing(
  ctx: AssetContext,
  commit: Commit,
  write: (tx: StoreScope) => Promise<{ answer: Answer; dropped: string[] }>,
): Promise<Committed> {
  let dropped: string[] = [];
  const committed = await commit(async (tx) => {
    const done = await write(tx);
    dropped = done.dropped;
    return done.answer;
  });
  await ctx.store.content.release(dropped).catch((error: unknown) => {
    ctx.logger.error({ err: error }, 'deleting unused bytes failed');
  });
  return committed;
}

/** The `asset` envelope of one revision of an asset (the current one by default). */
export async function assetAnswer(scope: StoreScope, assetId: string, number?: number) {
  const asset = await scope.assets.find(assetId);
  // Deleted for good by a request that came first: as if this one had come after it.
  if (!asset) throw assetNotFound();
  const at = number ?? asset.currentRevision;
  const revision = await scope.assets.revision(assetId, at);
  if (!revision) throw new Error(`asset ${assetId} has no revision ${at}`);
  const files = await scope.assets.files(assetId, at);
  return { status: 200, body: { asset: assetBody(asset, revision, files) } };
}

const locationOf = (ctx: AssetContext, assetId: string) =>
  `${ctx.apiUrl}${pathOf(assetRoutes.getAsset, { id: assetId })}`;

/** Registers a new asset with revision 1 (inspected) owned by `owner`: 201 with Location. */
export async function createAsset(
  ctx: AssetContext,
  commit: Commit,
  input: {
    owner: string;
    kind: AssetKind;
    title: string;
    files: StagedFile[];
    field: string;
    medium?: MediumRef;
    recheck: Recheck;
  },
): Promise<Committed> {
  const plan = await planChecked(ctx, input.recheck, {
    kind: input.kind,
    base: [],
    put: input.files,
    remove: [],
    field: input.field,
    now: ctx.clock.now(),
    ...(input.medium ? { medium: input.medium } : {}),
  });
  return commitPlanned(ctx, commit, plan, input.recheck, async (tx) => {
    const asset = await tx.assets.create({
      id: newId('ast'),
      owner: input.owner,
      kind: input.kind,
      title: input.title,
      files: plan.files,
      inspection: plan.inspection,
    });
    return { ...plannedAnswer(asset, plan), headers: { Location: locationOf(ctx, asset.id) } };
  });
}

/** The 201 answer of a write, from what it wrote (no read back of a large revision). */
function plannedAnswer(asset: AssetRecord, plan: RevisionPlan) {
  const revision = {
    assetId: asset.id,
    number: asset.currentRevision,
    createdAt: asset.updatedAt,
    inspection: plan.inspection,
    erasedAt: null,
    eraseReason: null,
  };
  return { status: 201, body: { asset: assetBody(asset, revision, plan.files) } };
}

/**
 * On a base whose content was erased, the files the change keeps must still be stored (another
 * revision may use them); the change may also replace or remove them all. Else 410.
 */
async function requireKeptContent(
  scope: StoreScope,
  asset: AssetRecord,
  baseRevision: number,
  base: readonly FileRecord[],
  change: Pick<RevisionChange, 'put' | 'remove'>,
): Promise<void> {
  const [revision] = await scope.assets.revisions(asset.id, {
    before: baseRevision + 1,
    limit: 1,
  });
  if (revision?.erased !== true) return;
  const changed = new Set([...change.put.map((f) => f.path), ...change.remove.map((r) => r.path)]);
  for (const file of base) {
    if (changed.has(file.path) || (await scope.bytes.has(file.sha256))) continue;
    throw v2ProblemOf('content_erased', {
      detail: `The content of ${file.path} in ${asset.id}@${baseRevision} was erased: put or remove it.`,
    });
  }
}

export function revisionConflict(currentRevision: number) {
  return v2ProblemOf('revision_conflict', {
    detail: `The asset is at revision ${currentRevision}; send that as base_revision.`,
    extras: { current_revision: currentRevision },
  });
}

/**
 * Whether a stale `base_revision` names an earlier revision whose change can still be judged:
 * it exists and its content was not erased. Then invalid input answers 422 before the 409
 * (decisions §8: the request itself before the state conflict).
 */
async function judgeableBase(ctx: AssetContext, asset: AssetRecord, baseRevision: number) {
  if (baseRevision > asset.currentRevision) return false;
  const revision = await ctx.store.assets.revision(asset.id, baseRevision);
  return revision?.erasedAt === null;
}

/**
 * Adds a revision on `baseRevision`: 201 with the new revision and its inspection. A base that
 * is not the current one is 409 with `current_revision`, after the change is planned on that
 * base (if it exists and its content is kept; else after its paths are judged alone) so that
 * invalid input answers 422 first.
 */
export async function commitRevision(
  ctx: AssetContext,
  commit: Commit,
  asset: AssetRecord,
  baseRevision: number,
  change: Pick<RevisionChange, 'put' | 'remove' | 'field'> & { recheck: Recheck },
): Promise<Committed> {
  const stale = baseRevision !== asset.currentRevision;
  if (stale && !(await judgeableBase(ctx, asset, baseRevision))) {
    rejectInvalidPaths(change);
    throw revisionConflict(asset.currentRevision);
  }
  const base = await ctx.store.assets.files(asset.id, baseRevision);
  const recheck: Recheck = async (scope) => {
    if (!(await scope.assets.find(asset.id))) throw assetNotFound(); // deleted for good meanwhile
    await change.recheck(scope);
    await requireKeptContent(scope, asset, baseRevision, base, change);
  };
  if (!stale) await requireKeptContent(ctx.store, asset, baseRevision, base, change);
  const plan = await planChecked(ctx, recheck, {
    kind: asset.kind as AssetKind,
    base,
    put: change.put,
    remove: change.remove,
    field: change.field,
    now: ctx.clock.now(),
  });
  if (stale) throw revisionConflict(asset.currentRevision);
  const number = baseRevision + 1;
  const location = `${locationOf(ctx, asset.id)}?revision=${number}`;
  const from = { assetId: asset.id, number: baseRevision, sha256s: base.map((f) => f.sha256) };
  return commitPlanned(
    ctx,
    commit,
    plan,
    recheck,
    async (tx) => {
      const result = await tx.assets.addRevision({
        assetId: asset.id,
        number,
        put: plan.put,
        remove: plan.remove,
        inspection: plan.inspection,
      });
      if (!result.ok) {
        // Deleted for good by a request that came first: as if this one had come after it.
        throw result.code === 'gone' ? assetNotFound() : revisionConflict(result.currentRevision);
      }
      return { ...plannedAnswer(result.asset, plan), headers: { Location: location } };
    },
    from,
  );
}
