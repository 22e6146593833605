import type { CheckReport } from '../report/violation.js';
import type { Folder } from '../report/folder.js';
import { checkFolder } from './check-folder.js';
import type { FolderLimits } from '../files/limits.js';
import type { ReadMemo } from '../files/readers.js';

export interface SaveCheckInput {
  /** The project's saved folder. */
  readonly folder: Folder;
  /** The page's file inside the folder, e.g. `about/index.html`. */
  readonly file: string;
  /** The draft's HTML, as `Draft.html()` gives it. */
  readonly html: string;
  readonly limits?: Partial<FolderLimits>;
  /** Files read in earlier checks of this folder (see `createReadMemo`). */
  readonly memo?: ReadMemo;
}

const utf8 = new TextEncoder();

/** The folder as it would be saved: the page's file holds the draft's HTML (UTF-8). */
export function folderWithPage(
  folder: Folder,
  file: string,
  html: string,
): Map<string, Uint8Array> {
  return new Map(folder).set(file, utf8.encode(html));
}

/**
 * The checks of a page save: the saved folder with the draft's HTML at the page's file, through
 * `checkFolder`. The server runs it at save and the browser bundle before saving, so both give
 * byte-equal reports for the same input.
 */
export function checkSave(input: SaveCheckInput): CheckReport {
  const folder = folderWithPage(input.folder, input.file, input.html);
  return checkFolder(folder, {
    ...(input.limits ? { limits: input.limits } : {}),
    ...(input.memo ? { memo: input.memo } : {}),
  });
}

/** True when the report holds an error, which makes a save fail with 422. */
export function blocksSave(report: CheckReport): boolean {
  return Object.values(report.checks).includes('failed');
}
