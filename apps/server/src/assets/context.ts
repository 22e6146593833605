import type { AssetRecord, RevisionRecord, Store, StoreScope } from '@galley/store';
import type { Request } from 'express';
import type { ApiDeps } from '../deps.js';
import { authOf } from '../auth/context.js';
import { problemOf } from '../http/problem.js';
import type { ContentLoader } from './service/content-loader.js';
import type { ContentFactsMemo } from './service/content-facts.js';
import type { Idempotency } from './service/run-once.js';
import type { ContentPins } from './service/content-pins.js';
import { v2ProblemOf } from './problems.js';

export type { AssetRecord, FileRecord, RevisionRecord } from '@galley/store';

/** Owner of the service's fonts: anyone reads them, nobody writes them. */
export const SERVICE_OWNER = 'system:svc';

/** Everything the asset interface's handlers share. */
export interface AssetContext extends ApiDeps {
  idempotency: Idempotency;
  loader: ContentLoader;
  facts: ContentFactsMemo;
  pins: ContentPins;
  /** `{asset_base_url}/api/v2`, for Location and next_page_url. */
  apiUrl: string;
}

/** The caller: account number and owner string (`user:<n>`); 401 without credentials. */
export function callerOf(req: Request): { accountNumber: number; owner: string } {
  const { account } = authOf(req);
  return { accountNumber: account.accountNumber, owner: `user:${account.accountNumber}` };
}

/** Owners whose assets the caller sees: its own and the service's fonts. */
export function visibleOwners(owner: string): string[] {
  return [owner, SERVICE_OWNER];
}

/** 404 for an asset that is absent or another account's (they answer alike). */
export const assetNotFound = () => problemOf('not_found', { detail: 'No such asset.' });

/** An asset the caller may read; another account's or an absent one is 404 alike. */
export async function readableAsset(
  scope: StoreScope,
  id: string,
  owner: string,
): Promise<AssetRecord> {
  const asset = await scope.assets.find(id);
  if (!asset || !visibleOwners(owner).includes(asset.owner)) throw assetNotFound();
  return asset;
}

/** An asset the caller may write: 404 as above, 403 for the service's own assets. */
export async function writableAsset(store: Store, id: string, owner: string): Promise<AssetRecord> {
  const asset = await readableAsset(store, id, owner);
  if (asset.owner !== owner) {
    throw v2ProblemOf('asset_read_only', {
      detail: `Assets owned by ${asset.owner} cannot be changed.`,
    });
  }
  return asset;
}

/**
 * A revision of the asset (the current one by default), or 404: for the asset when it was deleted
 * for good since it was read (as if this request had come after that), else for the revision.
 */
export async function revisionOf(
  scope: StoreScope,
  asset: AssetRecord,
  number?: number,
): Promise<RevisionRecord> {
  const at = number ?? asset.currentRevision;
  const revision = await scope.assets.revision(asset.id, at);
  if (revision) return revision;
  if (!(await scope.assets.find(asset.id))) throw assetNotFound();
  throw problemOf('not_found', { detail: `The asset has no revision ${at}.` });
}
