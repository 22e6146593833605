// The answers of the asset interface, exactly as asset-api-v2.md names their fields. Store
// records in, JSON (and a write's status and Location) out; nothing here reads or writes.
import { assetPaths, pathOf } from '@galley/core';
import type { Inspection, v2 } from '@galley/core';
import type { AssetRecord, FileRecord, RevisionRecord, ShownRevision } from '@galley/store';

type Asset = v2.Asset;

/**
 * A write's answer as data: kept as its request key's first answer, and given again to every
 * resend (decisions §6), so it is made once, in the write's transaction.
 */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * The revision whose files and inspection `body` shows in full, as that revision keeps them:
   * the answer is then stored without them (see `withoutShownRevision`), not as a copy.
   */
  shows?: ShownRevision;
}

/** The order a revision's files are planned, answered and checked in: by path, code unit by code unit. */
export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);

type RevisionBody = { asset: { revision: Record<string, unknown> } };

/** A body that shows a revision, its files and inspection left out (null in their places). */
export function withoutShownRevision(body: unknown): unknown {
  const { asset } = body as RevisionBody;
  return { asset: { ...asset, revision: { ...asset.revision, files: null, inspection: null } } };
}

/**
 * The body `withoutShownRevision` left, made whole again from the revision: its files in the
 * order a write answers them (by path, as `plan` sorts them), whatever order they were read in.
 */
export function withShownRevision(
  body: unknown,
  shown: { files: readonly FileRecord[]; inspection: Inspection },
): unknown {
  const { asset } = body as RevisionBody;
  const files = [...shown.files].sort(byPath).map(fileBody);
  return {
    asset: { ...asset, revision: { ...asset.revision, files, inspection: shown.inspection } },
  };
}

const bodyTexts = new WeakMap<Answer, string>();

/**
 * An answer's body as JSON text, made once per answer: a write's first answer is both stored and
 * sent, and a large revision's is hundreds of kilobytes. Answers are not changed once made.
 */
export function bodyJson(answer: Answer): string | undefined {
  if (answer.body === undefined) return undefined;
  let text = bodyTexts.get(answer);
  if (text === undefined) {
    text = JSON.stringify(answer.body);
    bodyTexts.set(answer, text);
  }
  return text;
}

/** `<asset_id>@<number>` (asset-api-v2, Versioning). */
export const refOf = (assetId: string, number: number) => `${assetId}@${number}`;

export function fileBody(file: FileRecord): v2.AssetFile {
  return { path: file.path, media_type: file.mediaType, size: file.size, sha256: file.sha256 };
}

/** What the asset envelope and a list item both begin with, in this order. */
function assetHead(asset: AssetRecord) {
  return {
    id: asset.id,
    kind: asset.kind as Asset['kind'],
    title: asset.title,
    state: asset.state,
    owner: asset.owner,
  };
}

/** The `asset` envelope's content: the asset with one revision, its files and inspection. */
export function assetBody(
  asset: AssetRecord,
  revision: RevisionRecord,
  files: readonly FileRecord[],
): Asset {
  return {
    ...assetHead(asset),
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
    ...assetHead(asset),
    updated_at: asset.updatedAt,
    revision: {
      number: asset.currentRevision,
      ref: refOf(asset.id, asset.currentRevision),
      inspection: { verdict: asset.verdict, media: asset.media },
    },
  };
}

/** 200 with the `asset` envelope of one revision. */
export function assetAnswer(
  asset: AssetRecord,
  revision: RevisionRecord,
  files: readonly FileRecord[],
): Answer {
  return { status: 200, body: { asset: assetBody(asset, revision, files) } };
}

/**
 * 201 with Location: the revision a write just recorded (a new asset's first, or the next one),
 * made from what it wrote, so a large revision is not read back.
 */
export function createdAnswer(
  asset: AssetRecord,
  written: { files: readonly FileRecord[]; inspection: Inspection },
  location: string,
): Answer {
  const revision = {
    assetId: asset.id,
    number: asset.currentRevision,
    createdAt: asset.updatedAt,
    inspection: written.inspection,
    erasedAt: null,
    eraseReason: null,
  };
  const body = { asset: assetBody(asset, revision, written.files) };
  const shows = { assetId: asset.id, number: asset.currentRevision };
  return { status: 201, body, headers: { Location: location }, shows };
}

/** 204: a deletion for good. */
export const deletedAnswer = (): Answer => ({ status: 204 });

/** An asset's URL (`{asset_base_url}/api/v2/assets/{id}`), at one revision when `number` is set. */
export function assetLocation(apiUrl: string, assetId: string, number?: number): string {
  const url = `${apiUrl}${pathOf(assetPaths.getAsset, { id: assetId })}`;
  return number === undefined ? url : `${url}?revision=${number}`;
}
