import type { v2 } from '@galley/core';
import { sha256Hex } from '@galley/store';
import type { FileRecord, StoreScope } from '@galley/store';
import { validationFailed } from '../problems.js';
import type { FieldError } from '../problems.js';
import { mediaTypeOfPath } from './media-types.js';

/**
 * A file about to enter a revision: its record, the request field it came from (for `errors`),
 * and its bytes when the request itself carried them (json, text, multipart).
 */
export interface StagedFile extends FileRecord {
  field: string;
  bytes?: Uint8Array;
}

const encoder = new TextEncoder();

/** Why a `{blob}` names nothing usable; an erase drops the caller's own uploads of its bytes. */
const NO_SUCH_BLOB = 'no such blob: never uploaded, expired (1 day), or its content erased';

export function stageBytes(
  path: string,
  bytes: Uint8Array,
  field: string,
  schemaUri: string | null = null,
): StagedFile {
  return {
    path,
    sha256: sha256Hex(bytes),
    size: bytes.byteLength,
    mediaType: mediaTypeOfPath(path),
    schemaUri,
    field,
    bytes,
  };
}

/** Files already stored (an uploaded blob, another revision's file): no bytes carried. */
export function stageStored(path: string, sha256: string, size: number, field: string) {
  return { path, sha256, size, mediaType: mediaTypeOfPath(path), schemaUri: null, field };
}

/**
 * Indented JSON text; undefined when JSON.stringify cannot write it (nested too deeply for its
 * recursion, or longer than a string can be).
 */
function jsonText(value: unknown): string | undefined {
  try {
    return `${JSON.stringify(value, null, 2)}\n`;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * Turns file specifications into staged files. `json` is written as indented UTF-8 JSON,
 * `text` as UTF-8; a `blob` must be one of the caller's uploads that has not expired (else 422).
 */
export async function stageSpecs(
  scope: StoreScope,
  accountNumber: number,
  specs: readonly v2.FileSpec[],
  field: string,
): Promise<StagedFile[]> {
  const reasons: FieldError[] = [];
  const staged: StagedFile[] = [];
  for (const [i, spec] of specs.entries()) {
    const at = `${field}.${i}`;
    if ('blob' in spec) {
      const blob = await scope.blobs.findLive(accountNumber, spec.blob);
      if (blob) staged.push(stageStored(spec.path, spec.blob, blob.size, at));
      else reasons.push([`${at}.blob`, NO_SUCH_BLOB]);
    } else if ('text' in spec) {
      staged.push(stageBytes(spec.path, encoder.encode(spec.text), at));
    } else {
      const text = jsonText(spec.json);
      if (text === undefined)
        reasons.push([`${at}.json`, 'nested too deeply or too large to store']);
      else staged.push(stageBytes(spec.path, encoder.encode(text), at, spec.schema ?? null));
    }
  }
  if (reasons.length) throw validationFailed(reasons);
  return staged;
}
