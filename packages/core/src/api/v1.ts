import { z } from 'zod';
import { CheckReport } from '../report/violation.js';
import { controlCharacterOf } from '../files/text.js';
import { MediumRef } from '../media/schema.js';
import { SiteReport, SiteWarning } from '../site/report.js';
import { Operation, OperationRequest, OperationResult, OutlineEntry } from '../draft/schema.js';
import { Sha256, StoredNumber, Timestamp, Uuid } from './common.js';

export const Role = z.enum(['owner', 'editor', 'viewer']);
export type Role = z.infer<typeof Role>;

export const Project = z.object({
  id: z.string(),
  title: z.string(),
  media: MediumRef,
  medium: z.string(),
  role: Role,
  owner: z.boolean(),
  pages: z.number().int(),
  revision: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
  url: z.string(),
  editor_url: z.string(),
  folder_url: z.string(),
});
export type Project = z.infer<typeof Project>;

export { SiteReport, SiteWarning };

export const CreatedProject = Project.extend({ site: SiteReport.optional() });
export const ProjectList = z.object({
  projects: z.array(Project),
  next_page_url: z.string().nullable(),
});
/** A project's title, as project.json keeps it (the `project` check refuses control characters). */
const ProjectTitle = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine(
    (title) => controlCharacterOf(title) === undefined,
    'must not contain control characters',
  );
export const RenameProject = z.strictObject({ title: ProjectTitle });

/** 422 body of a folder that fails the contract (or a plain site that cannot be converted). */
export const FolderCheckFailure = CheckReport;

/** Who is named as the author of something: a person's (or a token's account's) name. */
const ByName = z.object({ name: z.string() });

/**
 * A page's unsaved changes: the most recently changed open draft of the page with at least one
 * operation in effect (its undo stack is not empty), by whom, on which revision, changed when.
 */
export const UnsavedDraft = z.object({
  by: ByName,
  base_revision: z.number().int(),
  updated_at: Timestamp,
});
export type UnsavedDraft = z.infer<typeof UnsavedDraft>;

export const Page = z.object({
  id: z.string(),
  file: z.string(),
  title: z.string(),
  public_url: z.string(),
  size: z.number().int(),
  sha256: Sha256,
  revision: z.number().int(),
  /** Null when no open draft of the page has an operation in effect. */
  unsaved_draft: UnsavedDraft.nullable(),
});
export const PageList = z.object({ pages: z.array(Page), next_page_url: z.string().nullable() });

export const Member = z.object({ id: z.string(), name: z.string(), email: z.string(), role: Role });
export const PutMember = z.strictObject({ email: z.email(), role: Role });
/** PUT and DELETE members answer every member (null when the caller removed itself). */
export const Members = z.object({ members: z.array(Member).nullable() });
/** GET members: a page of members in account-number order. */
export const MemberList = z.object({
  members: z.array(Member),
  next_page_url: z.string().nullable(),
});

export const LockKind = z.enum(['agent', 'screen']);
export const PutLock = z.strictObject({ kind: LockKind, label: z.string().max(200) });
export const Lock = z.object({
  kind: LockKind,
  label: z.string(),
  holder: ByName,
  acquired_at: Timestamp,
  expires_at: Timestamp,
  ttl_seconds: z.number().int(),
});
export const LockAnswer = z.object({ lock: Lock });
/** GET /projects/{id}/lock: the lock in force, or null. */
export const LockState = z.object({ lock: Lock.nullable() });
export type LockState = z.infer<typeof LockState>;
/** The `lock` of a 423 answer: who holds it and until when. */
export const HeldLock = Lock.pick({ kind: true, label: true, holder: true, expires_at: true });

const PageRef = z.object({ id: z.string(), file: z.string() });

export const SaveRequest = z.strictObject({ draft_token: z.string().min(1), commit_id: Uuid });
export const Saved = z.object({
  page: PageRef,
  revision: z.number().int(),
  saved_at: Timestamp,
});

/** POST /pages/{page}/operations (the draft engine's schema, re-exported here with the others). */
export { OperationRequest };

/** GET /pages/{page}/draft: the open draft (opened if needed) with its newest token. */
export const DraftAnswer = z.object({
  page: PageRef,
  draft_token: z.string(),
  base_revision: z.number().int(),
  html: z.string(),
  outline: z.array(OutlineEntry),
  can_undo: z.boolean(),
  can_redo: z.boolean(),
});
export type DraftAnswer = z.infer<typeof DraftAnswer>;

/** The answer of an operation, a draft undo and a draft redo (`outline` when asked for). */
export const OperationAnswer = z.object({
  draft_token: z.string(),
  result: OperationResult,
  can_undo: z.boolean(),
  can_redo: z.boolean(),
  outline: z.array(OutlineEntry).optional(),
});
export type OperationAnswer = z.infer<typeof OperationAnswer>;

/** GET /pages/{page}/revisions/{revision}: the page's HTML as saved at that revision. */
export const PageRevision = z.object({
  page: PageRef,
  revision: z.number().int(),
  html: z.string(),
});
export type PageRevision = z.infer<typeof PageRevision>;

/**
 * GET /pages/{page}/draft/log: the operations in effect (applied, not undone) of the caller's
 * open draft, oldest first, and the revision they apply to.
 */
export const DraftLogAnswer = z.object({
  base_revision: z.number().int(),
  operations: z.array(Operation),
});
export type DraftLogAnswer = z.infer<typeof DraftLogAnswer>;

/**
 * The `draft` event of a page's stream: the lock holder's draft of the page as it now is.
 * `sequence` numbers the draft's changes (0: no change since it was opened on `base_revision`,
 * which is also what a discarded draft is answered as, with the saved page's HTML).
 */
export const DraftEventData = z.object({
  sequence: z.number().int(),
  base_revision: z.number().int(),
  html: z.string(),
  by: ByName,
});
export type DraftEventData = z.infer<typeof DraftEventData>;

/**
 * The `lock` event of a page's stream: the lock in force, or null; while it is free after its
 * holder let it go (or it expired) with unsaved changes in a draft of the project, `left_unsaved`
 * names that holder (the editing screen waits for its person before taking over).
 */
export const LockEventData = LockState.extend({ left_unsaved: ByName.optional() });
export type LockEventData = z.infer<typeof LockEventData>;

/** The `saved` event of a page's stream: the project's saved revision moved to `revision`. */
export const SavedEventData = z.object({ revision: z.number().int() });
export type SavedEventData = z.infer<typeof SavedEventData>;

/**
 * One event of GET /pages/{page}/events (`text/event-stream`): its `event:` line names it, and its
 * `data:` line is `data` as JSON.
 */
export const PageEvent = z.discriminatedUnion('event', [
  z.object({ event: z.literal('lock'), data: LockEventData }),
  z.object({ event: z.literal('draft'), data: DraftEventData }),
  z.object({ event: z.literal('saved'), data: SavedEventData }),
]);
export type PageEvent = z.infer<typeof PageEvent>;

export const HistoryKind = z.enum(['create', 'save', 'title', 'folder', 'undo', 'redo']);
export const HistoryEntry = z.object({
  revision: z.number().int(),
  kind: HistoryKind,
  page: PageRef.optional(),
  summary: z.string(),
  by: ByName,
  at: Timestamp,
  commit_id: z.string().optional(),
});
export const History = z.object({
  revision: z.number().int(),
  can_undo: z.boolean(),
  can_redo: z.boolean(),
  entries: z.array(HistoryEntry),
  next_page_url: z.string().nullable(),
});
export const HistoryMove = z.strictObject({
  direction: z.enum(['undo', 'redo']),
  revision: StoredNumber,
});

export const Confirmation = z.object({
  id: z.string(),
  version: z.number().int(),
  revision: z.number().int(),
  sha256: Sha256,
  note: z.string().nullable(),
  confirmed_at: Timestamp,
  confirmed_by: ByName,
  download_url: z.string(),
  has_unconfirmed_changes: z.boolean(),
});
export type Confirmation = z.infer<typeof Confirmation>;
export const ConfirmationList = z.object({
  confirmations: z.array(Confirmation),
  next_page_url: z.string().nullable(),
});
export const Confirm = z.strictObject({ note: z.string().max(2000).nullable().optional() });
export * from './editing-inputs.js';
