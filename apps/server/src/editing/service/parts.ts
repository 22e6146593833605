import type { Store } from '@galley/store';
import type { EditingSignals } from './editing-signals.js';
import type { FolderFiles } from './folder-files.js';
import type { RevisionStates } from './revision-states.js';

/**
 * What the editing services are built from (editing/index.ts makes one of each): the store,
 * the parsed saved revisions and folder files they share, and word of each change.
 */
export interface EditingParts {
  store: Store;
  states: RevisionStates;
  files: FolderFiles;
  signals: EditingSignals;
}
