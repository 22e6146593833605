import type { EditingRouter } from '../../openapi/api-router.js';
import type { EditingContext } from '../context.js';
import { lockBody, lockState } from '../present.js';
import { releaseLock, takeLock } from '../service/locks.js';
import { projectChangeFor, projectFor } from './access.js';

/** The project lock: held by (account, X-Editor-Client), kept by renewing within 60 s. */
export function lockRoutes(api: EditingRouter, ctx: EditingContext): void {
  api.handle('getLock', async ({ req, res, params }) => {
    await projectFor(ctx, req, params.id, 'read');
    res.json(lockState(await ctx.store.projectLocks.active(params.id)));
  });

  api.handle('takeLock', async ({ req, res, params, body }) => {
    const { holder } = await projectChangeFor(ctx, req, params.id, 'edit');
    const { kind, label } = await body();
    const lock = await takeLock(ctx, params.id, holder, { kind, label });
    res.json({ lock: lockBody(lock) });
  });

  api.handle('releaseLock', async ({ req, res, params }) => {
    const { holder } = await projectChangeFor(ctx, req, params.id, 'edit');
    await releaseLock(ctx, params.id, holder);
    res.status(204).end();
  });
}
