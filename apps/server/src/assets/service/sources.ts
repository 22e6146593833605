import type { v2 } from '@galley/core';
import type { AssetRecord, FileRecord, StoreScope } from '@galley/store';
import type { z } from 'zod';
import {
  assetNotFound,
  refusalOf,
  uploadLost,
  v2ProblemOf,
  validationFailed,
} from '../problems.js';
import { byPath } from '../present.js';
import { readableAsset } from './access.js';
import { stageSpecs } from './file-specs.js';

type CopySource = z.output<typeof v2.CopyAsset>['source'];

/**
 * Where a write's stored files come from: file specifications (their blobs), a revision of the
 * asset itself, another asset's revision, or the request's own upload.
 */
export type Sources =
  | { specs: readonly v2.FileSpec[]; accountNumber: number; field: string }
  | { revisionOf: AssetRecord; number: number | undefined; field: string }
  | { copyOf: CopySource; owner: string }
  | { upload: true };

/**
 * What a revision is made on: its base's files, and the paths the change puts or removes (the
 * rest of the base must still be stored, see `requireKeptContent`).
 */
export interface Base {
  asset: AssetRecord;
  number: number;
  files: readonly FileRecord[];
  changed: ReadonlySet<string>;
}

/**
 * Resolves a write's sources again once some of their contents were found gone (an erase, an
 * expiry or a deletion came first): throws what the request answers in sequence, as if it had
 * come after them. Returns when they still resolve (the caller then says which content is gone).
 */
export async function recheck(
  scope: StoreScope,
  origin: { sources: Sources; base?: Base },
): Promise<void> {
  const { sources, base } = origin;
  if (base && !(await scope.assets.find(base.asset.id))) throw assetNotFound();
  if ('specs' in sources) {
    await stageSpecs(scope, sources.accountNumber, sources.specs, sources.field);
  } else if ('revisionOf' in sources) {
    await storedFiles(scope, sources.revisionOf, sources);
  } else if ('copyOf' in sources) {
    await copySource(scope, sources.owner, sources.copyOf);
  } else {
    throw uploadLost();
  }
  if (base) await requireKeptContent(scope, base);
}

/**
 * The files of a revision to copy, the current one unless `number` (sent as `field`) names
 * another: a revision the asset lacks is an unresolvable reference (422), an erased one 410.
 */
export async function storedFiles(
  scope: StoreScope,
  asset: AssetRecord,
  input: { number: number | undefined; field: string },
): Promise<FileRecord[]> {
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
export async function copySource(
  scope: StoreScope,
  owner: string,
  source: CopySource,
): Promise<FileRecord[]> {
  try {
    const asset = await readableAsset(scope, source.asset, owner);
    return await storedFiles(scope, asset, { number: source.revision, field: 'source.revision' });
  } catch (error) {
    // Whatever makes the source unusable is a fault of the reference the body holds.
    const refused = refusalOf(error);
    if (refused?.code !== 'not_found' && refused?.code !== 'content_erased') throw error;
    const field = refused.code === 'content_erased' ? 'source.revision' : 'source.asset';
    throw validationFailed([[field, refused.detail]]);
  }
}

/**
 * On a base whose content was erased, the files the change keeps must still be stored (another
 * revision may use them); the change may also replace or remove them all. Else 410.
 */
export async function requireKeptContent(scope: StoreScope, base: Base): Promise<void> {
  const [revision] = await scope.assets.revisions(base.asset.id, {
    before: base.number + 1,
    limit: 1,
  });
  if (revision?.erased !== true) return;
  // In path order whatever the list came from (the database's collation, or a memo), so the
  // file named is the same on SQLite and PostgreSQL.
  for (const file of [...base.files].sort(byPath)) {
    if (base.changed.has(file.path) || (await scope.bytes.has(file.sha256))) continue;
    throw v2ProblemOf('content_erased', {
      detail: `The content of ${file.path} in ${base.asset.id}@${base.number} was erased: put or remove it.`,
    });
  }
}
