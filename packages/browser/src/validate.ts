import { checkFolder, readZip } from '@galley/core';
import type { CheckReport, Folder, FolderLimits, ReadZipResult } from '@galley/core';

export interface SaveCheckInput {
  /** The project's saved folder (see `readSavedFolder`). */
  readonly folder: Folder;
  /** The page's file inside the folder, e.g. `about/index.html`. */
  readonly file: string;
  /** The draft's HTML, as `Draft.html()` gives it. */
  readonly html: string;
  readonly limits?: Partial<FolderLimits>;
}

const utf8 = new TextEncoder();

/** The folder as it would be saved: the page's file holds the draft's HTML (UTF-8). */
export function folderWithPage(folder: Folder, file: string, html: string): Folder {
  const next = new Map(folder);
  next.set(file, utf8.encode(html));
  return next;
}

/**
 * The very checks the server runs when a page is saved: the saved folder with the draft's HTML at
 * the page's file, through `checkFolder`. Same report shape, same codes, and byte-equal JSON for
 * the same input, because it is the same function on the same bytes.
 */
export function validateBeforeSave(input: SaveCheckInput): CheckReport {
  const folder = folderWithPage(input.folder, input.file, input.html);
  return checkFolder(folder, input.limits ? { limits: input.limits } : {});
}

/** True when the report holds an error, which makes the server refuse the save with 422. */
export function blocksSave(report: CheckReport): boolean {
  return Object.values(report.checks).includes('failed');
}

/** A project folder ZIP (GET /api/v1/projects/{id}/folder) read back into memory. */
export function readSavedFolder(zip: Uint8Array): ReadZipResult {
  return readZip(zip);
}
