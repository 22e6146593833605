// The refusals every project route shares, in the order of decisions §8:
// 401 (requireAuth, before the router) → 404 → 403 → 423 → 400 → 422 → 409.
import type { Request } from 'express';
import { authOf } from '../auth/context.js';
import type { AuthContext } from '../auth/context.js';
import { editorClientOf, isValidEditorClient } from '../http/editor-client.js';
import type { V1Context } from './context.js';
import { heldLockBody } from './present.js';
import { v1Problem } from './problems.js';
import type { LockHolder, LockRecord, PageAccess, ProjectAccess } from './store-types.js';

export type Need = 'read' | 'edit' | 'owner';

/** The caller's project: 404 when absent or not a member, 403 when the role is too low. */
export async function projectFor(
  ctx: V1Context,
  req: Request,
  projectId: string,
  need: Need,
): Promise<ProjectAccess & { auth: AuthContext }> {
  const auth = authOf(req);
  const access = await ctx.store.projects.access(projectId, auth.account.accountNumber);
  if (!access) throw v1Problem('not_found', 'No such project.');
  requireRole(access, need);
  return { ...access, auth };
}

/** The caller's page in the current revision: 404 when absent, gone or not a member's. */
export async function pageFor(
  ctx: V1Context,
  req: Request,
  pageId: string,
  need: Need,
): Promise<PageAccess & { auth: AuthContext }> {
  const auth = authOf(req);
  const access = await ctx.store.projects.pageAccess(pageId, auth.account.accountNumber);
  if (!access) throw v1Problem('not_found', 'No such page.');
  const state = await ctx.states.get(access.project.id, access.project.revision);
  if (!state.pages.some((p) => p.file === access.page.file)) {
    throw v1Problem('not_found', 'The page is not in the current version of its project.');
  }
  requireRole(access, need);
  return { ...access, auth };
}

export function requireRole(access: ProjectAccess, need: Need): void {
  if (need === 'edit' && access.role === 'viewer') {
    throw v1Problem('forbidden', 'A viewer may read and export, not change.');
  }
  if (need === 'owner' && access.role !== 'owner') {
    throw v1Problem('owner_required', 'Only an owner may do this.');
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
  ctx: V1Context,
  req: Request,
  access: ProjectAccess & { auth: AuthContext },
): Promise<LockRecord | null> {
  const lock = await ctx.store.projectLocks.active(access.project.id);
  if (lock && !isHolder(lock, maybeHolder(req, access.auth))) throw lockHeld(lock);
  return lock;
}

export function lockHeld(lock: LockRecord) {
  return v1Problem('lock_held', `${lock.holderName} is editing (${lock.label || lock.kind}).`, {
    lock: heldLockBody(lock),
  });
}

/** Page editing needs the caller's own lock: 409 `lock_required` without one. */
export function requireOwnLock(lock: LockRecord | null, holder: LockHolder): void {
  if (!lock || !isHolder(lock, holder)) {
    throw v1Problem('lock_required', 'Take the project lock (PUT /projects/{id}/lock) first.');
  }
}

function isHolder(lock: LockRecord, holder: LockHolder | null): boolean {
  return (
    holder !== null && lock.accountNumber === holder.accountNumber && lock.client === holder.client
  );
}
