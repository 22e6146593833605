import type { Folder } from '../report/folder.js';
import type { CheckName, Violation } from '../report/violation.js';
import type { Medium } from '../media/schema.js';
import { createFileReaders, type FileReaders, type ReadMemo } from '../files/readers.js';
import type { FolderLimits } from '../files/limits.js';

/** project.json once it passed its schema (svc://schemas/project/1). */
export interface Project {
  readonly format: 1;
  readonly title: string;
  readonly media: { readonly id: string; readonly version: number };
  readonly pages: readonly {
    readonly file: string;
    readonly title: string;
    readonly public_url: string;
  }[];
}

/** What the `project` check learned: the project and its medium, when both are usable. */
export type ProjectState =
  | { readonly usable: true; readonly project: Project; readonly medium: Medium }
  | { readonly usable: false };

/** The folder plus everything read from it once and shared between checks. */
export interface FolderContext extends FileReaders {
  readonly folder: Folder;
  /** Every path, sorted, so findings come out in one order whatever the folder's. */
  readonly paths: readonly string[];
  readonly project: ProjectState;
  readonly limits: FolderLimits;
}

/** What one check found; `unusable` when its input could not be judged (outcome unchecked). */
export interface CheckFindings {
  readonly violations: Violation[];
  readonly unusable?: boolean;
}
export interface FolderCheck {
  readonly name: CheckName;
  run(context: FolderContext): CheckFindings;
}

export function createContext(
  folder: Folder,
  project: ProjectState,
  limits: FolderLimits,
  memo?: ReadMemo,
): FolderContext {
  const paths = [...folder.keys()].sort();
  return { folder, paths, project, limits, ...createFileReaders(folder, memo) };
}
