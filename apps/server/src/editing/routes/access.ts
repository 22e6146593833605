// Who the request is, for the refusals of service/access.ts: the account it authenticated as,
// and the client it names in X-Editor-Client (the lock's holder is the pair).
import type { Request } from 'express';
import type { LockHolder, PageAccess, ProjectAccess } from '@galley/store';
import { authOf } from '../../auth/context.js';
import type { AuthContext } from '../../auth/context.js';
import { editorClientOf, isValidEditorClient } from '../../http/editor-client.js';
import type { EditingContext } from '../context.js';
import { editingAccess, pageAccess, projectAccess, refuseForeignLock } from '../service/access.js';
import type { EditingAccess, Need } from '../service/access.js';

/** The caller's project: 404 when absent or not a member, 403 when the role is too low. */
export async function projectFor(
  ctx: EditingContext,
  req: Request,
  projectId: string,
  need: Need,
): Promise<ProjectAccess & { auth: AuthContext }> {
  const auth = authOf(req);
  return { ...(await projectAccess(ctx.store, projectId, auth.account.accountNumber, need)), auth };
}

/**
 * A change of the caller's project: as `projectFor`, then 423 while another client holds the
 * lock (a change needs none of its own), then 400 without a valid X-Editor-Client.
 */
export async function projectChangeFor(
  ctx: EditingContext,
  req: Request,
  projectId: string,
  need: Need,
): Promise<ProjectAccess & { auth: AuthContext; holder: LockHolder }> {
  const access = await projectFor(ctx, req, projectId, need);
  await refuseForeignLockOf(ctx, req, access);
  return { ...access, holder: holderOf(req, access.auth) };
}

/** The caller's page (any revision's) and its project: 404 when absent or not a member. */
export async function pageFor(
  ctx: EditingContext,
  req: Request,
  pageId: string,
): Promise<PageAccess & { auth: AuthContext }> {
  const auth = authOf(req);
  return { ...(await pageAccess(ctx.store, pageId, auth.account.accountNumber)), auth };
}

/** What a page-editing request decides on (see `editingAccess`), with the caller's holder pair. */
export interface Editing extends Omit<EditingAccess, 'access'> {
  access: PageAccess & { auth: AuthContext };
  holder: LockHolder;
}

/** A page-editing request: `editingAccess`'s refusals, then 400 (X-Editor-Client). */
export async function editingFor(
  ctx: EditingContext,
  req: Request,
  pageId: string,
): Promise<Editing> {
  const auth = authOf(req);
  const found = await editingAccess(
    ctx,
    pageId,
    auth.account.accountNumber,
    maybeHolder(req, auth),
  );
  return {
    access: { ...found.access, auth },
    lock: found.lock,
    holder: holderOf(req, auth),
    draft: found.draft,
  };
}

/** 423 `lock_held` when a lock in force belongs to another (account, client) than the caller. */
export function refuseForeignLockOf(
  ctx: EditingContext,
  req: Request,
  access: ProjectAccess & { auth: AuthContext },
) {
  return refuseForeignLock(ctx.store, access.project.id, maybeHolder(req, access.auth));
}

/** The (account, X-Editor-Client) pair of the request, or null when the header is not valid. */
function maybeHolder(req: Request, auth: AuthContext): LockHolder | null {
  const client = req.get('x-editor-client');
  return isValidEditorClient(client) ? { accountNumber: auth.account.accountNumber, client } : null;
}

/** After the 423 check: the caller's holder pair, or 400 for a missing or bad X-Editor-Client. */
export function holderOf(req: Request, auth: AuthContext): LockHolder {
  return { accountNumber: auth.account.accountNumber, client: editorClientOf(req) };
}
