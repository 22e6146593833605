import { StoredNumber } from '@galley/core';
import { z } from 'zod';
import type { EditingRouter } from '../../openapi/api-router.js';
import { holderOf, projectFor, refuseForeignLock, requireRole } from './access.js';
import type { EditingContext } from '../context.js';
import { memberBody } from '../present.js';
import { fieldErrorsOf } from '../../http/parse.js';
import { v1ProblemOf } from '../problems.js';
import { decodeCursor, pageOf } from '../../http/paging.js';

/** Cursor of the member list: the account number the next page continues after. */
const MemberCursor = z.strictObject({ after: StoredNumber });

/** Members: any member reads; an owner changes; anyone may leave; one owner always stays. */
export function memberRoutes(api: EditingRouter, ctx: EditingContext): void {
  const list = async (projectId: string) => ({
    members: (await ctx.store.projectMembers.list(projectId)).map(memberBody),
  });

  api.handle('listMembers', async ({ req, res, params, query }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const { per_page, page } = query();
    const after = decodeCursor(MemberCursor, page)?.after;
    const rows = await ctx.store.projectMembers.list(project.id, {
      limit: per_page + 1,
      ...(after !== undefined ? { after } : {}),
    });
    const { shown, cursor } = pageOf(rows, per_page, (last) => ({ after: last.accountNumber }));
    res.json({
      members: shown.map(memberBody),
      next_page_url: ctx.urls.nextPage('listMembers', { id: project.id }, per_page, cursor),
    });
  });

  api.handle('putMember', async ({ req, res, params, body }) => {
    const access = await projectFor(ctx, req, params.id, 'owner');
    await refuseForeignLock(ctx, req, access);
    holderOf(req, access.auth);
    const { email, role } = await body();
    const account = await ctx.store.accounts.findByEmail(email);
    if (!account) {
      throw v1ProblemOf('unknown_account', {
        detail: 'Only an existing account can be made a member.',
        extras: { errors: fieldErrorsOf([['email', 'no account has this e-mail address']]) },
      });
    }
    const changed = await ctx.store.transaction(async (tx) => {
      await tx.projects.lockRow(params.id);
      return tx.projectMembers.put(params.id, account.accountNumber, role);
    });
    if (!changed.ok) throw lastOwner();
    ctx.signals.changed(params.id, { kind: 'project.members_changed', data: {} });
    res.json(await list(params.id));
  });

  api.handle('removeMember', async ({ req, res, params }) => {
    const access = await projectFor(ctx, req, params.id, 'read');
    const user = params.user;
    const self = user === access.auth.account.accountNumber;
    if (!self) requireRole(access, 'owner');
    await refuseForeignLock(ctx, req, access);
    holderOf(req, access.auth);
    const removed = await ctx.store.transaction(async (tx) => {
      await tx.projects.lockRow(params.id);
      return tx.projectMembers.remove(params.id, user);
    });
    if (!removed.ok) {
      if (removed.code === 'not_member')
        throw v1ProblemOf('not_found', { detail: 'No such member.' });
      throw lastOwner();
    }
    ctx.signals.changed(params.id, { kind: 'project.members_changed', data: {} });
    res.json(self ? { members: null } : await list(params.id));
  });
}

const lastOwner = () =>
  v1ProblemOf('last_owner', {
    detail: 'The project must keep at least one owner.',
    extras: { errors: fieldErrorsOf([['role', 'the last owner cannot be lowered or removed']]) },
  });
