import type { FolderFiles } from './folder-files.js';
import type { RevisionStates } from './revision-states.js';

/** Which page file, at which revision of its project (whose revision now is `current`). */
export interface SavedPageAt {
  projectId: string;
  current: number;
  revision: number;
  file: string;
}

/** Saved pages as text: a page file as it was at any revision of its project. */
export class SavedPages {
  readonly #states: RevisionStates;
  readonly #files: FolderFiles;

  constructor(states: RevisionStates, files: FolderFiles) {
    this.#states = states;
    this.#files = files;
  }

  /**
   * The page's HTML as saved at that revision (read as UTF-8, as drafts read it), or null when
   * the revision does not exist (yet) or had no such file. Saved revisions never change.
   */
  async html({ projectId, current, revision, file }: SavedPageAt): Promise<string | null> {
    if (revision < 1 || revision > current) return null;
    const entry = (await this.#states.get(projectId, revision)).manifest.get(file);
    return entry ? new TextDecoder().decode(await this.#files.file(entry.sha256)) : null;
  }
}
