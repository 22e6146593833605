// The shapes the OpenAPI documents name (`components.schemas`, referred to by `$ref`), so that
// generated clients name them too (`Project`, `Asset`, `Lock`). Kept apart from zod's global
// registry: naming a shape here changes no other JSON Schema made from it.
import type { z } from 'zod';
import { Operation, OutlineEntry } from '../draft/schema.js';
import { CheckReport, Violation } from '../report/violation.js';
import { Problem } from './common.js';
import * as events from './events.js';
import * as v1 from './v1.js';
import * as v2 from './v2.js';

/** Each named shape by its name; a document holds those its operations use. */
export const namedSchemas: Readonly<Record<string, z.ZodType>> = {
  Problem,
  // The editing interface.
  Project: v1.Project,
  CreatedProject: v1.CreatedProject,
  ProjectList: v1.ProjectList,
  RenameProject: v1.RenameProject,
  FolderUpload: v1.FolderUploadForm,
  SiteReport: v1.SiteReport,
  CheckReport,
  Violation,
  Page: v1.Page,
  PageList: v1.PageList,
  Member: v1.Member,
  Members: v1.Members,
  MemberList: v1.MemberList,
  PutMember: v1.PutMember,
  Lock: v1.Lock,
  LockState: v1.LockState,
  LockAnswer: v1.LockAnswer,
  HeldLock: v1.HeldLock,
  PutLock: v1.PutLock,
  Draft: v1.DraftAnswer,
  DraftLog: v1.DraftLogAnswer,
  Operation,
  OperationRequest: v1.OperationRequest,
  OperationAnswer: v1.OperationAnswer,
  OutlineEntry,
  SaveRequest: v1.SaveRequest,
  Saved: v1.Saved,
  PageRevision: v1.PageRevision,
  PageEvent: v1.PageEvent,
  History: v1.History,
  HistoryEntry: v1.HistoryEntry,
  HistoryMove: v1.HistoryMove,
  Confirmation: v1.Confirmation,
  ConfirmationList: v1.ConfirmationList,
  Confirm: v1.Confirm,
  // The asset interface.
  Asset: v2.Asset,
  AssetEnvelope: v2.AssetEnvelope,
  AssetFile: v2.AssetFile,
  AssetList: v2.AssetList,
  AssetListItem: v2.AssetListItem,
  Revision: v2.Revision,
  RevisionList: v2.RevisionList,
  RevisionListItem: v2.RevisionListItem,
  Inspection: v2.Inspection,
  InspectionCheck: v2.InspectionCheck,
  InspectionViolation: v2.InspectionViolation,
  JudgedMedium: v2.JudgedMedium,
  FileSpec: v2.FileSpec,
  CreateAsset: v2.CreateAsset,
  AssetUpload: v2.UploadForm,
  RenameAsset: v2.PatchAsset,
  NewRevision: v2.NewRevision,
  EraseContent: v2.EraseContent,
  DuplicateAsset: v2.DuplicateAsset,
  CopyAsset: v2.CopyAsset,
  PutState: v2.PutState,
  DeleteAsset: v2.DeleteAsset,
  Blob: v2.Blob,
  SchemaList: v2.SchemaList,
  // Both interfaces.
  Event: events.GalleyEvent,
  Webhook: events.Webhook,
  CreatedWebhook: events.CreatedWebhook,
  WebhookList: events.WebhookList,
  Delivery: events.Delivery,
  DeliveryList: events.DeliveryList,
};

/**
 * Shapes documented other than as they are read: the service reads a file specification as one
 * object (so a wrong mix of members gets a reason naming them), and documents its three forms.
 */
export const documentedAs: ReadonlyMap<z.ZodType, z.ZodType> = new Map([
  [v2.FileSpec, v2.FileSpecChoices],
]);
