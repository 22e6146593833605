import type { AssetKind, MediumRef } from '@galley/core';
import type { StoreScope } from '@galley/store';
import { newId } from '@galley/store';
import { assetNotFound } from './context.js';
import type { AssetRecord, FileRecord, V2Context } from './context.js';
import type { StagedFile } from './file-specs.js';
import type { Commit, Committed } from './idempotency.js';
import { assetProblem } from './problems.js';
import type { RevisionChange, RevisionPlan } from './revision-plan.js';
import { planRevision } from './revision-plan.js';
import { assetBody } from './views.js';

const PARALLEL_PUTS = 8;

/**
 * Contents that requests of this process are about to reference. A refused write releases the
 * bytes it added only if no other running write holds them: two writes of the same new content
 * must not have the loser delete what the winner commits.
 */
export class ContentPins {
  readonly #counts = new Map<string, number>();

  /** Holds the contents until the returned function is called (once; later calls do nothing). */
  hold(sha256s: readonly string[]): () => void {
    for (const sha256 of sha256s) this.#counts.set(sha256, (this.#counts.get(sha256) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const sha256 of sha256s) {
        const left = (this.#counts.get(sha256) ?? 1) - 1;
        if (left > 0) this.#counts.set(sha256, left);
        else this.#counts.delete(sha256);
      }
    };
  }

  held(sha256: string): boolean {
    return this.#counts.has(sha256);
  }
}

/**
 * Stores the bytes a request carried, runs `commit`, and if the commit fails removes again the
 * bytes this request added that nothing uses, so a refused write leaves nothing behind.
 */
export async function withFreshBytes<T>(
  ctx: Pick<V2Context, 'store' | 'pins'>,
  fresh: readonly StagedFile[],
  commit: () => Promise<T>,
): Promise<T> {
  // Each distinct content once; each put is fsynced, and several at once let the disk batch.
  const contents = [...new Map(fresh.map((f) => [f.sha256, f.bytes ?? new Uint8Array()]))];
  const release = ctx.pins.hold(contents.map(([sha256]) => sha256));
  const created: string[] = [];
  try {
    let next = 0;
    const worker = async () => {
      while (next < contents.length) {
        const put = await ctx.store.bytes.put([contents[next++]![1]]);
        if (put.ok && put.created) created.push(put.sha256);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PUTS, contents.length) }, worker));
    return await commit();
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
  ctx: Pick<V2Context, 'store' | 'pins'>,
  sha256s: readonly string[],
): Promise<void> {
  const free = sha256s.filter((sha256) => !ctx.pins.held(sha256));
  if (free.length) await ctx.store.transaction((tx) => tx.content.release(free));
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

const locationOf = (ctx: V2Context, assetId: string) => `${ctx.apiUrl}/assets/${assetId}`;

/** Registers a new asset with revision 1 (inspected) owned by `owner`: 201 with Location. */
export async function createAsset(
  ctx: V2Context,
  commit: Commit,
  input: {
    owner: string;
    kind: AssetKind;
    title: string;
    files: StagedFile[];
    field: string;
    medium?: MediumRef;
  },
): Promise<Committed> {
  const plan = await planRevision(ctx.loader, {
    kind: input.kind,
    base: [],
    put: input.files,
    remove: [],
    field: input.field,
    now: ctx.clock.now(),
    ...(input.medium ? { medium: input.medium } : {}),
  });
  return withFreshBytes(ctx, plan.fresh, () =>
    commit(async (tx) => {
      const asset = await tx.assets.create({
        id: newId('ast'),
        owner: input.owner,
        kind: input.kind,
        title: input.title,
        files: plan.files,
        inspection: plan.inspection,
      });
      return { ...plannedAnswer(asset, plan), headers: { Location: locationOf(ctx, asset.id) } };
    }),
  );
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
  ctx: V2Context,
  asset: AssetRecord,
  baseRevision: number,
  base: readonly FileRecord[],
  change: Pick<RevisionChange, 'put' | 'remove'>,
): Promise<void> {
  const [revision] = await ctx.store.assets.revisions(asset.id, {
    before: baseRevision + 1,
    limit: 1,
  });
  if (revision?.erased !== true) return;
  const changed = new Set([...change.put.map((f) => f.path), ...change.remove.map((r) => r.path)]);
  for (const file of base) {
    if (changed.has(file.path) || (await ctx.store.bytes.has(file.sha256))) continue;
    throw assetProblem(
      'content_erased',
      `The content of ${file.path} in ${asset.id}@${baseRevision} was erased: put or remove it.`,
    );
  }
}

export function revisionConflict(currentRevision: number) {
  return assetProblem(
    'revision_conflict',
    `The asset is at revision ${currentRevision}; send that as base_revision.`,
    { current_revision: currentRevision },
  );
}

/**
 * Whether a stale `base_revision` names an earlier revision whose change can still be judged:
 * it exists and its content was not erased. Then invalid input answers 422 before the 409
 * (decisions §8: the request itself before the state conflict).
 */
async function judgeableBase(ctx: V2Context, asset: AssetRecord, baseRevision: number) {
  if (baseRevision > asset.currentRevision) return false;
  const revision = await ctx.store.assets.revision(asset.id, baseRevision);
  return revision?.erasedAt === null;
}

/**
 * Adds a revision on `baseRevision`: 201 with the new revision and its inspection. A base that
 * is not the current one is 409 with `current_revision`, after the change is planned on that
 * base (if it exists and its content is kept) so that invalid input answers 422 first.
 */
export async function commitRevision(
  ctx: V2Context,
  commit: Commit,
  asset: AssetRecord,
  baseRevision: number,
  change: Pick<RevisionChange, 'put' | 'remove' | 'field'>,
): Promise<Committed> {
  const stale = baseRevision !== asset.currentRevision;
  if (stale && !(await judgeableBase(ctx, asset, baseRevision))) {
    throw revisionConflict(asset.currentRevision);
  }
  const base = await ctx.store.assets.files(asset.id, baseRevision);
  if (!stale) await requireKeptContent(ctx, asset, baseRevision, base, change);
  const plan = await planRevision(ctx.loader, {
    ...change,
    kind: asset.kind as AssetKind,
    base,
    now: ctx.clock.now(),
  });
  if (stale) throw revisionConflict(asset.currentRevision);
  const number = baseRevision + 1;
  const location = `${locationOf(ctx, asset.id)}?revision=${number}`;
  return withFreshBytes(ctx, plan.fresh, () =>
    commit(async (tx) => {
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
    }),
  );
}
