import type { AssetRecord, FileRecord, StoreScope } from '@galley/store';
import type { Readable } from 'node:stream';
import { notFound, v2ProblemOf } from '../problems.js';
import { revisionOf } from './access.js';

/** A file of a revision of the asset (the current one by default); erased: 410. */
export async function findFile(
  scope: StoreScope,
  asset: AssetRecord,
  input: { path: string; revision: number | undefined },
): Promise<FileRecord> {
  const revision = await revisionOf(scope, asset, input.revision);
  const file = await scope.assets.file(asset.id, revision.number, input.path);
  if (!file) throw notFound(`No file ${input.path} in ${asset.id}@${revision.number}.`);
  if (revision.erasedAt !== null) {
    throw v2ProblemOf('content_erased', {
      detail: `The content of ${asset.id}@${revision.number} was erased.`,
    });
  }
  return file;
}

/** A file's bytes (a part of them, inclusive), or 410 when they are gone meanwhile. */
export async function readFile(
  scope: StoreScope,
  file: FileRecord,
  part?: { start: number; end: number },
): Promise<Readable> {
  const stream = await scope.bytes.read(file.sha256, part);
  if (!stream)
    throw v2ProblemOf('content_erased', { detail: `The content of ${file.path} is gone.` });
  return stream;
}
