export { Draft } from './draft.js';
export type { ChangeResult, CreatedContent, OpenResult } from './draft.js';
export { draftErrorCodes } from './errors.js';
export { ElementView, PREVIEW_ATTRIBUTE, PREVIEW_SLOT_ATTRIBUTE } from './element-view.js';
export type { ElementChanges, ElementHandle, MarkedContent, MarkedHtml } from './element-view.js';
export type { DraftError, DraftErrorCode, Refused } from './errors.js';
export type { Outline } from './outline.js';
export {
  DraftLog,
  ElementRef,
  Operation,
  OperationRequest,
  OperationResult,
  OutlineEntry,
} from './schema.js';
export type { OperationKind } from './schema.js';
