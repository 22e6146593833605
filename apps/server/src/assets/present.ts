import type { v2 } from '@galley/core';
import type { AssetRecord, FileRecord, RevisionRecord } from './context.js';

type Asset = v2.Asset;

/** `<asset_id>@<number>` (asset-api-v2, Versioning). */
export const refOf = (assetId: string, number: number) => `${assetId}@${number}`;

export function fileBody(file: FileRecord): v2.AssetFile {
  return { path: file.path, media_type: file.mediaType, size: file.size, sha256: file.sha256 };
}

/** The `asset` envelope's content: the asset with one revision, its files and inspection. */
export function assetBody(
  asset: AssetRecord,
  revision: RevisionRecord,
  files: readonly FileRecord[],
): Asset {
  return {
    id: asset.id,
    kind: asset.kind as Asset['kind'],
    title: asset.title,
    state: asset.state,
    owner: asset.owner,
    created_at: asset.createdAt,
    updated_at: asset.updatedAt,
    revision: {
      number: revision.number,
      ref: refOf(asset.id, revision.number),
      files: files.map(fileBody),
      inspection: revision.inspection,
      created_at: revision.createdAt,
      erased: revision.erasedAt !== null,
    },
  };
}

/** A list item: the current revision's inspection reduced to verdict and media (§8). */
export function assetListItem(asset: AssetRecord): v2.AssetListItem {
  return {
    id: asset.id,
    kind: asset.kind as Asset['kind'],
    title: asset.title,
    state: asset.state,
    owner: asset.owner,
    updated_at: asset.updatedAt,
    revision: {
      number: asset.currentRevision,
      ref: refOf(asset.id, asset.currentRevision),
      inspection: { verdict: asset.verdict, media: asset.media },
    },
  };
}
