// The refusals every project route shares, in the order of decisions §8:
// 401 (requireAuth, before the router) → 404 → 403 → 423 → 400 → 422 → 409.
import type { Request } from 'express';
import type { DraftRecord, LockHolder, LockRecord, PageAccess, ProjectAccess } from '@galley/store';
import { authOf } from '../../auth/context.js';
import type { AuthContext } from '../../auth/context.js';
import { editorClientOf, isValidEditorClient } from '../../http/editor-client.js';
import type { EditingContext } from '../context.js';
import { heldLockBody } from '../present.js';
import { v1ProblemOf } from '../problems.js';

export type Need = 'read' | 'edit' | 'owner';

/** The caller's project: 404 when absent or not a member, 403 when the role is too low. */
export async function projectFor(
  ctx: EditingContext,
  req: Request,
  projectId: string,
  need: Need,
): Promise<ProjectAccess & { auth: AuthContext }> {
  const auth = authOf(req);
  const access = await ctx.store.projects.access(projectId, auth.account.accountNumber);
  if (!access) throw v1ProblemOf('not_found', { detail: 'No such project.' });
  requireRole(access, need);
  return { ...access, auth };
}

/** The caller's page (any revision's) and its project: 404 when absent or not a member. */
export async function pageFor(
  ctx: EditingContext,
  req: Request,
  pageId: string,
): Promise<PageAccess & { auth: AuthContext }> {
  const auth = authOf(req);
  const access = await ctx.store.projects.pageAccess(pageId, auth.account.accountNumber);
  if (!access) throw v1ProblemOf('not_found', { detail: 'No such page.' });
  return { ...access, auth };
}

/** What a page-editing request decides on, after the refusals every one of them shares. */
export interface Editing {
  access: PageAccess & { auth: AuthContext };
  lock: LockRecord | null;
  holder: LockHolder;
  /** The caller's open draft of the page, as read at the start of the request. */
  draft: DraftRecord | null;
}

/**
 * A page-editing request: 404 (absent, gone from the current revision, not a member) → 403
 * (viewer) → 423 (another client's lock) → 400 (X-Editor-Client). Page, role, lock and draft
 * come from one read.
 */
export async function editingFor(
  ctx: EditingContext,
  req: Request,
  pageId: string,
): Promise<Editing> {
  const auth = authOf(req);
  const sent = maybeHolder(req, auth);
  const found = await ctx.store.drafts.editing(
    pageId,
    auth.account.accountNumber,
    sent?.client ?? null,
  );
  if (!found) throw v1ProblemOf('not_found', { detail: 'No such page.' });
  const { project, page } = found.access;
  const state = await ctx.states.get(project.id, project.revision);
  if (!state.pages.some((p) => p.file === page.file)) {
    throw v1ProblemOf('not_found', {
      detail: 'The page is not in the current version of its project.',
    });
  }
  requireRole(found.access, 'edit');
  if (found.lock && !isHolder(found.lock, sent)) throw lockHeld(found.lock);
  return {
    access: { ...found.access, auth },
    lock: found.lock,
    holder: holderOf(req, auth),
    draft: found.draft,
  };
}

export function requireRole(access: ProjectAccess, need: Need): void {
  if (need === 'edit' && access.role === 'viewer') {
    throw v1ProblemOf('forbidden', { detail: 'A viewer may read and export, not change.' });
  }
  if (need === 'owner' && access.role !== 'owner') {
    throw v1ProblemOf('owner_required', { detail: 'Only an owner may do this.' });
  }
}

/** The (account, X-Editor-Client) pair of the request, or null when the header is not valid. */
export function maybeHolder(req: Request, auth: AuthContext): LockHolder | null {
  const client = req.get('x-editor-client');
  return isValidEditorClient(client) ? { accountNumber: auth.account.accountNumber, client } : null;
}

/** After the 423 check: the caller's holder pair, or 400 for a missing or bad X-Editor-Client. */
export function holderOf(req: Request, auth: AuthContext): LockHolder {
  return { accountNumber: auth.account.accountNumber, client: editorClientOf(req) };
}

/** 423 `lock_held` when a lock in force belongs to another (account, client); else that lock. */
export async function refuseForeignLock(
  ctx: EditingContext,
  req: Request,
  access: ProjectAccess & { auth: AuthContext },
): Promise<LockRecord | null> {
  const lock = await ctx.store.projectLocks.active(access.project.id);
  if (lock && !isHolder(lock, maybeHolder(req, access.auth))) throw lockHeld(lock);
  return lock;
}

export function lockHeld(lock: LockRecord) {
  return v1ProblemOf('lock_held', {
    detail: `${lock.holderName} is editing (${lock.label || lock.kind}).`,
    extras: { lock: heldLockBody(lock) },
  });
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
