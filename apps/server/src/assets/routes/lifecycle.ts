import type { v2 } from '@galley/core';
import type { AssetKind } from '@galley/core';
import type { StoreScope } from '@galley/store';
import type { z } from 'zod';
import type { AssetRouter } from '../../openapi/api-router.js';
import type { AssetRecord, AssetContext } from '../context.js';
import { assetNotFound, readableAsset } from '../context.js';
import { stageStored } from '../service/file-specs.js';
import { HttpProblem } from '../../http/problem.js';
import { v2ProblemOf } from '../problems.js';
import {
  assetAnswer,
  commitReleasing,
  commitRevision,
  createAsset,
} from '../service/write-asset.js';
import { assetWrite } from './write.js';
import { validationFailed } from '../../http/parse.js';

type State = AssetRecord['state'];

/** Decisions §6: archive from active; trash from active or archived; restore from either. */
export const allowedMoves: Readonly<Record<State, readonly State[]>> = {
  archived: ['active'],
  deleted: ['active', 'archived'],
  active: ['archived', 'deleted'],
};

/**
 * The files of a revision to copy, the current one unless `number` (sent as `field`) names
 * another: a revision the asset lacks is an unresolvable reference (422), an erased one 410.
 */
async function storedFiles(
  scope: StoreScope,
  asset: AssetRecord,
  input: { number: number | undefined; field: string },
) {
  const at = input.number ?? asset.currentRevision;
  const revision = await scope.assets.revision(asset.id, at);
  const files = revision?.erasedAt === null ? await scope.assets.files(asset.id, at) : [];
  // Deleted for good since it was read, its rows maybe between these reads: as if this request
  // had come after the deletion.
  if (!(await scope.assets.find(asset.id))) throw assetNotFound();
  if (!revision) throw validationFailed([[input.field, `The asset has no revision ${at}.`]]);
  if (revision.erasedAt !== null) {
    throw v2ProblemOf('content_erased', { detail: `The content of ${asset.id}@${at} was erased.` });
  }
  return files;
}

/** A copy's source: another asset the caller may read (else 422: an unresolvable reference). */
async function copySource(
  scope: StoreScope,
  owner: string,
  source: z.output<typeof v2.CopyAsset>['source'],
) {
  try {
    const asset = await readableAsset(scope, source.asset, owner);
    return await storedFiles(scope, asset, { number: source.revision, field: 'source.revision' });
  } catch (error) {
    if (!(error instanceof HttpProblem) || error.status >= 500 || error.status === 422) throw error;
    const field = error.status === 410 ? 'source.revision' : 'source.asset';
    throw validationFailed([[field, error.detail]]);
  }
}

export function lifecycleRoutes(api: AssetRouter, ctx: AssetContext): void {
  api.handle('duplicate', ({ req, res, params, body }) =>
    assetWrite(
      ctx,
      { req, res, id: params.id, access: 'read', body },
      async ({ asset, body, caller, commit }) => {
        const source = (scope: StoreScope) =>
          storedFiles(scope, asset, { number: body.revision, field: 'revision' });
        const files = await source(ctx.store);
        return createAsset(ctx, commit, {
          ...caller,
          kind: asset.kind as AssetKind,
          title: body.title,
          files: files.map((f) => ({ ...f, field: 'revision' })),
          field: 'revision',
          recheck: source,
        });
      },
    ),
  );

  api.handle('copyInto', ({ req, res, params, body }) =>
    assetWrite(
      ctx,
      { req, res, id: params.id, access: 'write', body },
      async ({ asset, body, caller, commit }) => {
        if (asset.kind !== 'production') {
          throw validationFailed([
            ['id', `copies go into productions; ${asset.id} is an ${asset.kind}`],
          ]);
        }
        const source = (scope: StoreScope) => copySource(scope, caller.owner, body.source);
        const files = await source(ctx.store);
        const put = files.map((f) => ({
          ...stageStored(`${body.to}${f.path}`, f.sha256, f.size, 'source'),
          schemaUri: f.schemaUri,
        }));
        return commitRevision(ctx, commit, asset, body.base_revision, {
          put,
          remove: [],
          field: 'to',
          recheck: source,
        });
      },
    ),
  );

  api.handle('setState', ({ req, res, params, body }) =>
    assetWrite(ctx, { req, res, id: params.id, access: 'write', body }, ({ asset, body, commit }) =>
      commit(async (tx) => {
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
        return assetAnswer(tx, asset.id);
      }),
    ),
  );

  api.handle('deleteAsset', ({ req, res, params, body }) =>
    assetWrite(ctx, { req, res, id: params.id, access: 'write', body }, ({ asset, commit }) =>
      commitReleasing(ctx, commit, async (tx) => {
        const current = await tx.assets.lockRow(asset.id);
        if (!current) throw assetNotFound(); // deleted for good meanwhile
        if (current.state !== 'deleted') {
          throw v2ProblemOf('not_in_trash', {
            detail: 'Only an asset in the trash can be deleted for good.',
            extras: { state: current.state },
          });
        }
        return { answer: { status: 204 }, dropped: await tx.assets.delete(asset.id) };
      }),
    ),
  );
}
