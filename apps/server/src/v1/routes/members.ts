import { PageQuery, StoredNumber, v1 } from '@galley/core';
import { z } from 'zod';
import type { ApiRouter } from '../../openapi/api-router.js';
import { holderOf, projectFor, refuseForeignLock, requireRole } from '../access.js';
import type { V1Context } from '../context.js';
import { memberBody } from '../present.js';
import { fieldErrorsOf } from '../../http/parse.js';
import { v1ProblemOf } from '../problems.js';
import { MemberParams, ProjectParams } from '../schemas.js';
import { decodeCursor, pageOf } from '../../http/paging.js';
import { notFound, writeResponses } from './projects.js';

const tags = ['Members'];
/** Cursor of the member list: the account number the next page continues after. */
const MemberCursor = z.strictObject({ after: StoredNumber });

/** Members: any member reads; an owner changes; anyone may leave; one owner always stays. */
export function memberRoutes(api: ApiRouter, ctx: V1Context): void {
  const list = async (projectId: string) => ({
    members: (await ctx.store.projectMembers.list(projectId)).map(memberBody),
  });

  api.route(
    {
      method: 'get',
      path: '/projects/{id}/members',
      summary: 'Members with their roles, in account-number order',
      tags,
      params: ProjectParams,
      query: PageQuery,
      responses: {
        200: { description: 'A page of members', schema: v1.MemberList },
        404: notFound,
      },
    },
    async ({ req, res, params, query }) => {
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
        next_page_url: ctx.urls.nextPage(`/projects/${project.id}/members`, per_page, cursor),
      });
    },
  );

  api.route(
    {
      method: 'put',
      path: '/projects/{id}/members',
      summary: 'Make an existing account a member, or change its role (owner only)',
      tags,
      editorClient: true,
      params: ProjectParams,
      body: v1.PutMember,
      responses: writeResponses({
        200: { description: 'The members', schema: v1.Members },
        422: {
          description:
            'Invalid request body (`errors`), `unknown_account` (no account has the e-mail), or `last_owner` (the project keeps an owner)',
        },
      }),
    },
    async ({ req, res, params, body }) => {
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
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/projects/{id}/members/{user}',
      summary: 'Remove a member (an owner: anyone; others: only themselves)',
      tags,
      editorClient: true,
      params: MemberParams,
      responses: writeResponses({
        200: {
          description: 'The members; null when the caller removed itself',
          schema: v1.Members,
        },
        422: { description: '`last_owner`: the project keeps an owner' },
      }),
    },
    async ({ req, res, params }) => {
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
    },
  );
}

const lastOwner = () =>
  v1ProblemOf('last_owner', {
    detail: 'The project must keep at least one owner.',
    extras: { errors: fieldErrorsOf([['role', 'the last owner cannot be lowered or removed']]) },
  });
