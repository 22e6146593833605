import type { Clock, Store } from '@galley/store';
import type { WorkPool } from '../pool/work-pool.js';
import type { DraftService } from './services/draft-service.js';
import type { EditingSignals } from './services/editing-signals.js';
import type { FolderFiles } from './services/folder-files.js';
import type { PageEvents } from './services/page-events.js';
import type { ProjectChanges } from './services/project-changes.js';
import type { RevisionStates } from './services/revision-states.js';
import type { SavedPages } from './services/saved-pages.js';
import type { Urls } from './urls.js';

/** What the editing interface's routes are built on. */
export interface V1Context {
  store: Store;
  clock: Clock;
  urls: Urls;
  states: RevisionStates;
  files: FolderFiles;
  changes: ProjectChanges;
  drafts: DraftService;
  pages: SavedPages;
  signals: EditingSignals;
  events: PageEvents;
  /** Worker threads for folder intake and large drafts. */
  pool: WorkPool;
  /** Largest JSON body accepted (413 beyond). */
  jsonLimitBytes: number;
  /** Largest folder ZIP accepted (413 beyond, counted while streaming). */
  maxZipBytes: number;
}
