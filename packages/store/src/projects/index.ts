// The projects domain as the Store exposes it: `store.projects`, `store.projectMembers`, …
import type { RepoScope } from '../scope.js';
import { StampedCache } from '../stamped-cache.js';
import type { StoreStamps } from '../stamped-cache.js';
import { ConfirmationsRepository } from './confirmations-repository.js';
import { DraftSnapshotsRepository } from './draft-snapshots.js';
import { DraftsRepository } from './drafts-repository.js';
import type { EditingContext } from './drafts-repository.js';
import { LocksRepository } from './locks-repository.js';
import { MembersRepository } from './members-repository.js';
import { ProjectsRepository } from './projects-repository.js';
import type { ProjectAccess } from './projects-repository.js';
import { RevisionsRepository } from './revisions-repository.js';

/**
 * Built once per store, shared by every scope of it, both stamped by `data_version` and
 * `total_changes()`. `access`: the account's access to a project, by `projectId accountNumber`;
 * any write at all, by anyone, forgets it but for a draft event this process appends (it
 * changes no access).
 * `editing`: what a page-editing request decides on, by page, account and client; a draft's
 * own next event is absorbed (DraftsRepository.append), so a chain of operations reads it once.
 */
export function projectCaches(stamps: StoreStamps) {
  return {
    access: new StampedCache<ProjectAccess | null>(stamps.write),
    editing: new StampedCache<EditingContext | null>(stamps.write),
  };
}

export type ProjectCaches = ReturnType<typeof projectCaches>;

export function projectRepositories(scope: RepoScope, caches: ProjectCaches) {
  return {
    projects: new ProjectsRepository(scope, caches.access),
    projectMembers: new MembersRepository(scope),
    projectRevisions: new RevisionsRepository(scope),
    projectLocks: new LocksRepository(scope),
    drafts: new DraftsRepository(scope, { editing: caches.editing, unmoved: [caches.access] }),
    draftSnapshots: new DraftSnapshotsRepository(scope),
    confirmations: new ConfirmationsRepository(scope),
  };
}

export type {
  ProjectRecord,
  ProjectAccess,
  PageAccess,
  ProjectCursor,
  ProjectRole,
} from './projects-repository.js';
export type { MemberRecord, MemberChange } from './members-repository.js';
export type {
  HistoryKind,
  HistoryEntryRecord,
  HistoryMoveResult,
  RecordRevision,
} from './revisions-repository.js';
export type {
  LockRecord,
  LockHolder,
  LockKind,
  AcquireResult,
  ReleaseResult,
} from './locks-repository.js';
export { isHeldBy } from './locks-repository.js';
export type { DraftRecord } from './draft-records.js';
export type { DraftEvent, EditingContext, PageWatch, UnsavedDraft } from './drafts-repository.js';
export type { DraftLogRecord, EventKind } from './draft-events.js';
export type { DraftRestore, DraftSnapshot } from './draft-snapshots.js';
export type { ConfirmationRecord } from './confirmations-repository.js';
export type {
  PageEntry,
  FileEntry,
  MediaRef,
  FolderState,
  ManifestEntry,
  RevisionState,
} from './state.js';
export { contentDigestOf } from './state.js';
