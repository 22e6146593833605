// The assets domain's repositories, as spread onto the Store by ../repositories.ts.
import type { RepoScope } from '../scope.js';
import { AssetsRepository } from './assets-repository.js';
import { BlobsRepository } from './blobs-repository.js';
import { ContentRepository } from './content-repository.js';
import { RequestKeysRepository } from './request-keys-repository.js';
import { ServiceTurnsRepository } from './service-turns-repository.js';

export function assetRepositories(scope: RepoScope) {
  return {
    assets: new AssetsRepository(scope),
    blobs: new BlobsRepository(scope),
    content: new ContentRepository(scope),
    requestKeys: new RequestKeysRepository(scope),
    serviceTurns: new ServiceTurnsRepository(scope),
  };
}

export type {
  AssetRecord,
  AssetState,
  AssetListFilter,
  FileRecord,
  NewAsset,
  RevisionRecord,
  RevisionWrite,
} from './records.js';
export { likeContains } from './records.js';
export type { BaseRevision } from './content-repository.js';
export { BLOB_LIFETIME_SECONDS } from './blobs-repository.js';
export type {
  RequestKeyClaim,
  RequestKeyHold,
  RequestKeyRecord,
  ShownRevision,
  StoredAnswer,
} from './request-keys-repository.js';
export {
  REQUEST_KEY_TTL_SECONDS,
  REQUEST_KEY_LEASE_SECONDS,
  REQUEST_KEY_RENEW_SECONDS,
  REQUEST_KEY_STALE_SECONDS,
} from './request-keys-repository.js';
