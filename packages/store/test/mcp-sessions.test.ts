import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Store } from '@galley/store';
import { person, siteOf } from './projects-fixtures.js';
import { describeStores } from './stores.js';

const IDLE = 1800;

describeStores('MCP sessions', (t) => {
  /** A session of `accountNumber` started with a new token of it. */
  const open = async (store: Store, accountNumber: number, maxLive = 2) =>
    store.mcpSessions.open({
      id: randomUUID(),
      holder: { accountNumber, client: randomUUID() },
      tokenId: (await store.tokens.issue({ accountNumber })).record.id,
      label: 'agent (MCP)',
      initialize: '{"protocolVersion":"2025-06-18"}',
      maxLive,
      idleSeconds: IDLE,
    });

  it('bounds the live sessions of an account, ended and idle ones not counted', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const bob = await person(store, 'bob@example.org');
    const first = await open(store, ada.accountNumber);
    const second = await open(store, ada.accountNumber);
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(await open(store, ada.accountNumber)).toEqual({ ok: false });
    // Another account has its own bound.
    expect((await open(store, bob.accountNumber)).ok).toBe(true);
    if (!first.ok || !second.ok) throw new Error('setup');
    expect(await store.mcpSessions.end(first.session.id)).toMatchObject({ id: first.session.id });
    const third = await open(store, ada.accountNumber);
    expect(third.ok).toBe(true);
    // The two live ones go idle: they no longer count, and can no longer be used.
    t.clock.advance((IDLE + 1) * 1000);
    expect(await store.mcpSessions.use(second.session.id, ada.accountNumber, IDLE)).toBeNull();
    expect((await open(store, ada.accountNumber)).ok).toBe(true);
    expect(await store.mcpSessions.idle(IDLE)).toHaveLength(3);
  });

  it('is used only by its account, and ended once', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const bob = await person(store, 'bob@example.org');
    const opened = await open(store, ada.accountNumber);
    if (!opened.ok) throw new Error('setup');
    const { id } = opened.session;
    expect(await store.mcpSessions.use(id, bob.accountNumber, IDLE)).toBeNull();
    t.clock.advance(1000);
    const used = await store.mcpSessions.use(id, ada.accountNumber, IDLE);
    expect(used).toMatchObject({ id, holder: opened.session.holder, label: 'agent (MCP)' });
    expect(used!.seenAt > opened.session.seenAt).toBe(true);
    expect(await store.mcpSessions.end(id)).toMatchObject({ holder: opened.session.holder });
    expect(await store.mcpSessions.end(id)).toBeNull();
    expect(await store.mcpSessions.use(id, ada.accountNumber, IDLE)).toBeNull();
    await store.mcpSessions.forgetEnded(0);
    expect(await store.mcpSessions.idle(0)).toEqual([]);
  });

  it('renews its holder’s lock only while the session is live, its token valid and the lock its', async () => {
    const { store } = await t.fresh();
    const ada = await person(store, 'ada@example.org');
    const projectId = await siteOf(store, ada);
    const opened = await open(store, ada.accountNumber);
    if (!opened.ok) throw new Error('setup');
    const { id: sessionId, holder } = opened.session;
    const renew = () =>
      store.mcpSessions.renewLock({ sessionId, projectId, holder, ttlSeconds: 60 });
    expect(await renew()).toBe(false); // no lock yet: a renewal takes none
    await store.projectLocks.acquire({
      projectId,
      holder,
      kind: 'agent',
      label: 'agent (MCP)',
      ttlSeconds: 60,
    });
    expect(await store.projectLocks.heldBy(holder)).toEqual([projectId]);
    t.clock.advance(50_000);
    expect(await renew()).toBe(true);
    t.clock.advance(50_000);
    expect(await store.projectLocks.active(projectId)).toMatchObject({ client: holder.client });
    // Its token revoked, the session's locks are no longer renewed (they lapse).
    const { tokenId } = opened.session;
    await store.tokens.revoke({ accountNumber: ada.accountNumber, idOrPrefix: tokenId });
    expect(await renew()).toBe(false);
    const again = await open(store, ada.accountNumber);
    if (!again.ok) throw new Error('setup');
    const renewAgain = () =>
      store.mcpSessions.renewLock({
        sessionId: again.session.id,
        projectId,
        holder: again.session.holder,
        ttlSeconds: 60,
      });
    await store.projectLocks.release(projectId, holder);
    await store.projectLocks.acquire({
      projectId,
      holder: again.session.holder,
      kind: 'agent',
      label: 'agent (MCP)',
      ttlSeconds: 60,
    });
    expect(await renewAgain()).toBe(true);
    await store.mcpSessions.end(again.session.id);
    expect(await renewAgain()).toBe(false);
    await store.projectLocks.release(projectId, again.session.holder);
    expect(await renew()).toBe(false);
    expect(await store.projectLocks.active(projectId)).toBeNull();
    expect(await store.projectLocks.heldBy(holder)).toEqual([]);
  });
});
