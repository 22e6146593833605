// The projects domain as the Store exposes it: `store.projects`, `store.projectMembers`, …
import type { RepoScope } from '../scope.js';
import { ConfirmationsRepository } from './confirmations-repository.js';
import { DraftSnapshotsRepository } from './draft-snapshots.js';
import { DraftsRepository } from './drafts-repository.js';
import { LocksRepository } from './locks-repository.js';
import { MembersRepository } from './members-repository.js';
import { ProjectsRepository } from './projects-repository.js';
import { RevisionsRepository } from './revisions-repository.js';

export function projectRepositories(scope: RepoScope) {
  return {
    projects: new ProjectsRepository(scope),
    projectMembers: new MembersRepository(scope),
    projectRevisions: new RevisionsRepository(scope),
    projectLocks: new LocksRepository(scope),
    drafts: new DraftsRepository(scope),
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
export type {
  DraftRecord,
  DraftEvent,
  EditingContext,
  PageWatch,
  UnsavedDraft,
} from './drafts-repository.js';
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
export { relaxedWrite } from './relaxed.js';
