import { isoTime } from '@galley/store';
import type { EditingRouter } from '../../openapi/api-router.js';
import { holderOf, lockHeld, projectFor, refuseForeignLock } from './access.js';
import type { EditingContext } from '../context.js';
import { LOCK_TTL_SECONDS, lockBody, lockState } from '../present.js';

/** The project lock: held by (account, X-Editor-Client), kept by renewing within 60 s. */
export function lockRoutes(api: EditingRouter, ctx: EditingContext): void {
  api.handle('getLock', async ({ req, res, params }) => {
    await projectFor(ctx, req, params.id, 'read');
    res.json(lockState(await ctx.store.projectLocks.active(params.id)));
  });

  api.handle('takeLock', async ({ req, res, params, body }) => {
    const access = await projectFor(ctx, req, params.id, 'edit');
    await refuseForeignLock(ctx, req, access);
    const holder = holderOf(req, access.auth);
    const { kind, label } = await body();
    const asked = isoTime(ctx.clock.now());
    const taken = await ctx.store.projectLocks.acquire({
      projectId: params.id,
      holder,
      kind,
      label,
      ttlSeconds: LOCK_TTL_SECONDS,
    });
    if (!taken.ok) throw lockHeld(taken.held);
    // A renewal keeps the time the lock was taken: only a lock taken now is news.
    if (taken.lock.acquiredAt >= asked) {
      ctx.signals.changed(params.id, {
        kind: 'lock.taken',
        data: { lock: lockBody(taken.lock) },
      });
    }
    res.json({ lock: lockBody(taken.lock) });
  });

  api.handle('releaseLock', async ({ req, res, params }) => {
    const access = await projectFor(ctx, req, params.id, 'edit');
    await refuseForeignLock(ctx, req, access);
    const released = await ctx.store.projectLocks.release(params.id, holderOf(req, access.auth));
    if (!released.ok) throw lockHeld(released.held);
    if (released.released) ctx.signals.changed(params.id, { kind: 'lock.released', data: {} });
    res.status(204).end();
  });
}
