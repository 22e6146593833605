import { checkSave, readZip } from '@galley/core';
import type { ReadZipResult } from '@galley/core';

/**
 * The very checks the server runs when a page is saved (the core's `checkSave`): same report
 * shape, same codes, and byte-equal JSON for the same input, because it is the same function on
 * the same bytes.
 */
export const validateBeforeSave = checkSave;

/** A project folder ZIP (GET /api/v1/projects/{id}/folder) read back into memory. */
export function readSavedFolder(zip: Uint8Array): ReadZipResult {
  return readZip(zip);
}
