// The refusals every project operation shares, in the order of decisions §8:
// 401 (requireAuth, before the router) → 404 → 403 → 423 → 400 → 422 → 409.
import type {
  DraftRecord,
  LockHolder,
  LockRecord,
  PageAccess,
  ProjectAccess,
  Store,
} from '@galley/store';
import { lockHeld, v1ProblemOf } from '../problems.js';
import type { RevisionStates } from './revision-states.js';

export type Need = 'read' | 'edit' | 'owner';

/** The account's project: 404 when absent or not a member, 403 when the role is too low. */
export async function projectAccess(
  store: Store,
  projectId: string,
  accountNumber: number,
  need: Need,
): Promise<ProjectAccess> {
  const access = await store.projects.access(projectId, accountNumber);
  if (!access) throw v1ProblemOf('not_found', { detail: 'No such project.' });
  requireRole(access, need);
  return access;
}

/** The account's page (any revision's) and its project: 404 when absent or not a member. */
export async function pageAccess(
  store: Store,
  pageId: string,
  accountNumber: number,
): Promise<PageAccess> {
  const access = await store.projects.pageAccess(pageId, accountNumber);
  if (!access) throw v1ProblemOf('not_found', { detail: 'No such page.' });
  return access;
}

/** What a page-editing request decides on, after the refusals every one of them shares. */
export interface EditingAccess {
  access: PageAccess;
  lock: LockRecord | null;
  /** The caller's open draft of the page, as read at the start of the request. */
  draft: DraftRecord | null;
}

/**
 * A page-editing request: 404 (absent, gone from the current revision, not a member) → 403
 * (viewer) → 423 (another client's lock). `holder`: the request's (account, client), null when
 * it names no valid client (a 400, which comes after the 423). Page, role, lock and draft come
 * from one read.
 */
export async function editingAccess(
  ctx: { store: Store; states: RevisionStates },
  pageId: string,
  accountNumber: number,
  holder: LockHolder | null,
): Promise<EditingAccess> {
  const found = await ctx.store.drafts.editing(pageId, accountNumber, holder?.client ?? null);
  if (!found) throw v1ProblemOf('not_found', { detail: 'No such page.' });
  const { project, page } = found.access;
  const state = await ctx.states.get(project.id, project.revision);
  if (!state.pages.some((p) => p.file === page.file)) {
    throw v1ProblemOf('not_found', {
      detail: 'The page is not in the current version of its project.',
    });
  }
  requireRole(found.access, 'edit');
  if (found.lock && !isHolder(found.lock, holder)) throw lockHeld(found.lock);
  return { access: found.access, lock: found.lock, draft: found.draft };
}

export function requireRole(access: ProjectAccess, need: Need): void {
  if (need === 'edit' && access.role === 'viewer') {
    throw v1ProblemOf('forbidden', { detail: 'A viewer may read and export, not change.' });
  }
  if (need === 'owner' && access.role !== 'owner') {
    throw v1ProblemOf('owner_required', { detail: 'Only an owner may do this.' });
  }
}

/** 423 `lock_held` when a lock in force belongs to another (account, client); else that lock. */
export async function refuseForeignLock(
  store: Store,
  projectId: string,
  holder: LockHolder | null,
): Promise<LockRecord | null> {
  const lock = await store.projectLocks.active(projectId);
  if (lock && !isHolder(lock, holder)) throw lockHeld(lock);
  return lock;
}

/** Page editing needs the caller's own lock: 409 `lock_required` without one. */
export function requireOwnLock(lock: LockRecord | null, holder: LockHolder): void {
  if (!lock || !isHolder(lock, holder)) {
    throw v1ProblemOf('lock_required', {
      detail: 'Take the project lock (PUT /projects/{id}/lock) first.',
    });
  }
}

function isHolder(lock: LockRecord, holder: LockHolder | null): boolean {
  return (
    holder !== null && lock.accountNumber === holder.accountNumber && lock.client === holder.client
  );
}
