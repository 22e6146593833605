import type { Clock, Store } from '@galley/store';
import type { StreamSet } from '../events/stream-set.js';
import type { WorkPool } from '../pool/work-pool.js';
import type { DraftService } from './service/draft-service.js';
import type { EditingSignals } from './service/editing-signals.js';
import type { FolderFiles } from './service/folder-files.js';
import type { PageEvents } from './service/page-events.js';
import type { ProjectChanges } from './service/project-changes.js';
import type { RevisionStates } from './service/revision-states.js';
import type { SavedPages } from './service/saved-pages.js';
import type { Urls } from './urls.js';

/** What the editing interface's routes are built on. */
export interface EditingContext {
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
  /** The page streams (`GET /pages/{page}/events`) open now. */
  pageStreams: StreamSet;
  /** Worker threads for folder intake and large drafts. */
  pool: WorkPool;
  /** Largest JSON body accepted (413 beyond). */
  jsonLimitBytes: number;
  /** Largest folder ZIP accepted (413 beyond, counted while streaming). */
  maxZipBytes: number;
}
