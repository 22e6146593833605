import type { EditingRouter } from '../../openapi/api-router.js';
import type { EditingContext } from '../context.js';
import { memberBody } from '../present.js';
import { requireRole } from '../service/access.js';
import { putMember, removeMember } from '../service/members.js';
import { holderOf, projectChangeFor, projectFor, refuseForeignLockOf } from './access.js';
import { numberedPage } from './paging.js';

/** Members: any member reads; an owner changes; anyone may leave; one owner always stays. */
export function memberRoutes(api: EditingRouter, ctx: EditingContext): void {
  const all = async (projectId: string) => ({
    members: (await ctx.store.projectMembers.list(projectId)).map(memberBody),
  });

  api.handle('listMembers', async ({ req, res, params, query }) => {
    const { project } = await projectFor(ctx, req, params.id, 'read');
    const list = { route: 'listMembers', projectId: project.id, from: 'after' } as const;
    const page = await numberedPage(
      ctx,
      list,
      query(),
      (range) => ctx.store.projectMembers.list(project.id, range),
      (member) => member.accountNumber,
    );
    res.json({ members: page.shown.map(memberBody), next_page_url: page.next_page_url });
  });

  api.handle('putMember', async ({ req, res, params, body }) => {
    await projectChangeFor(ctx, req, params.id, 'owner');
    await putMember(ctx, params.id, await body());
    res.json(await all(params.id));
  });

  api.handle('removeMember', async ({ req, res, params }) => {
    const access = await projectFor(ctx, req, params.id, 'read');
    const self = params.user === access.auth.account.accountNumber;
    if (!self) requireRole(access, 'owner');
    await refuseForeignLockOf(ctx, req, access);
    holderOf(req, access.auth);
    await removeMember(ctx, params.id, params.user);
    res.json(self ? { members: null } : await all(params.id));
  });
}
