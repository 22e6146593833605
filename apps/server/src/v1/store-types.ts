// Records of the store's projects domain, named once for the editing interface. They are
// derived from the Store's repositories (the store package exports its repositories' types
// through `Repositories`).
import type { Repositories } from '@galley/store';

type Repo = Repositories;
type Result<F extends (...args: never[]) => unknown> = NonNullable<Awaited<ReturnType<F>>>;

export type ProjectAccess = Result<Repo['projects']['access']>;
export type PageAccess = Result<Repo['projects']['pageAccess']>;
export type ProjectRecord = ProjectAccess['project'];
export type ProjectRole = ProjectAccess['role'];
export type RevisionState = Result<Repo['projectRevisions']['state']>;
export type FolderState = Parameters<Repo['projectRevisions']['record']>[0]['state'];
export type FileEntry = FolderState['files'] extends ReadonlyMap<string, infer E> ? E : never;
export type PageEntry = FolderState['pages'][number];
export type HistoryEntryRecord = Result<Repo['projectRevisions']['history']>[number];
export type LockRecord = Result<Repo['projectLocks']['active']>;
export type LockHolder = Parameters<Repo['projectLocks']['release']>[1];
export type LockKind = LockRecord['kind'];
export type DraftRecord = Result<Repo['drafts']['find']>;
export type DraftEvent = Parameters<Repo['drafts']['append']>[1];
export type PageWatch = Result<Repo['drafts']['watch']>;
export type UnsavedDraftRecord =
  Awaited<ReturnType<Repo['drafts']['unsaved']>> extends ReadonlyMap<string, infer U> ? U : never;
export type MemberRecord = Result<Repo['projectMembers']['list']>[number];
export type ConfirmationRecord = Result<Repo['confirmations']['latest']>;
