import type { AssetRecord, RevisionRecord, Store, StoreScope } from '@galley/store';
import { assetNotFound, notFound, v2ProblemOf } from '../problems.js';

/** Owner of the service's fonts: anyone reads them, nobody writes them. */
export const SERVICE_OWNER = 'system:svc';

/** The owner string of an account's assets. */
export const ownerOf = (accountNumber: number) => `user:${accountNumber}`;

/** Owners whose assets the caller sees: its own and the service's fonts. */
export function visibleOwners(owner: string): string[] {
  return [owner, SERVICE_OWNER];
}

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
  throw notFound(`The asset has no revision ${at}.`);
}
