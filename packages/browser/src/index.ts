// The browser bundle of Galley: the draft engine, the folder checks the server runs at save, and
// the typed client, for pages that edit under a strict Content-Security-Policy.
import './jitless.js';

export {
  Draft,
  checkFolder,
  readZip,
  orderViolations,
  blocksSave,
  folderWithPage,
  PREVIEW_ATTRIBUTE,
  PREVIEW_SLOT_ATTRIBUTE,
  findMedium,
} from '@galley/core';
export type {
  CheckReport,
  DraftError,
  ElementChanges,
  ElementHandle,
  ElementView,
  Folder,
  MarkedContent,
  MarkedHtml,
  Operation,
  OperationKind,
  OperationResult,
  Outline,
  OutlineEntry,
  Problem,
  SaveCheckInput,
  Violation,
} from '@galley/core';
export { createClient, followEvents, GalleyApiError } from '@galley/client';
export type { GalleyClient, ClientOptions } from '@galley/client';
export { readSavedFolder, validateBeforeSave } from './validate.js';
export { SyncedDraft } from './synced-draft.js';
export type {
  DraftAnswer,
  DraftEndpoints,
  OperationAnswer,
  PageRef,
  Saved,
} from './synced-draft.js';
export { attempt } from './attempt.js';
export { describeFailure } from './result.js';
export type { Failure, Outcome } from './result.js';
export { randomUuid } from './uuid.js';
