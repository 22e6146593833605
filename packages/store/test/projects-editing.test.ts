import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { describeStores } from './stores.js';
import { folderState, person, sha } from './projects-fixtures.js';

async function project(store: Store) {
  const ada = await person(store, 'ada@example.org', 'Ada');
  const bob = await person(store, 'bob@example.org', 'Bob');
  const { id } = await store.projects.create({
    accountNumber: ada.accountNumber,
    byName: 'Ada',
    state: folderState('S', { 'index.html': 'i' }),
  });
  const pageId = (await store.projectRevisions.pageIds(id)).get('index.html')!;
  return { id, pageId, ada, bob };
}

describeStores('project locks', (t) => {
  const lock = (store: Store, projectId: string, accountNumber: number, client: string) =>
    store.projectLocks.acquire({
      projectId,
      holder: { accountNumber, client },
      kind: 'agent',
      label: `${client} editing`,
      ttlSeconds: 60,
    });

  it('is renewed by its holder, refused to others, and expires after its time', async () => {
    const { store } = await t.fresh();
    const { id, ada, bob } = await project(store);
    const first = await lock(store, id, ada.accountNumber, 'one');
    expect(first).toMatchObject({
      ok: true,
      lock: { client: 'one', holderName: 'Ada', kind: 'agent' },
    });
    t.clock.advanceSeconds(30);
    const renewed = await lock(store, id, ada.accountNumber, 'one');
    if (!first.ok || !renewed.ok) throw new Error('setup');
    expect(renewed.lock.acquiredAt).toBe(first.lock.acquiredAt);
    expect(renewed.lock.expiresAt > first.lock.expiresAt).toBe(true);
    // The same account from another client is another holder.
    expect(await lock(store, id, ada.accountNumber, 'two')).toMatchObject({
      ok: false,
      held: { client: 'one' },
    });
    expect(
      await store.projectLocks.release(id, { accountNumber: bob.accountNumber, client: 'one' }),
    ).toMatchObject({
      ok: false,
    });
    t.clock.advanceSeconds(60);
    expect(await store.projectLocks.active(id)).toBeNull();
    const taken = await lock(store, id, bob.accountNumber, 'three');
    expect(taken).toMatchObject({ ok: true, lock: { holderName: 'Bob' } });
    expect(
      await store.projectLocks.release(id, { accountNumber: bob.accountNumber, client: 'three' }),
    ).toEqual({
      ok: true,
    });
    expect(await store.projectLocks.active(id)).toBeNull();
  });

  it('goes to exactly one of many clients racing for it', async () => {
    const { store } = await t.fresh();
    const { id, ada } = await project(store);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => lock(store, id, ada.accountNumber, `c${i}`)),
    );
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    const holder = winners[0]!.ok ? winners[0]!.lock.client : '';
    for (const r of results) if (!r.ok) expect(r.held.client).toBe(holder);
    // …and of many racing for an expired one.
    t.clock.advanceSeconds(61);
    const again = await Promise.all(
      Array.from({ length: 8 }, (_, i) => lock(store, id, ada.accountNumber, `d${i}`)),
    );
    expect(again.filter((r) => r.ok)).toHaveLength(1);
  });
});

describeStores('drafts', (t) => {
  it('keeps one draft per (page, account, client), its log, and moves its token by compare-and-set', async () => {
    const { store } = await t.fresh();
    const { id, pageId, ada } = await project(store);
    const holder = { accountNumber: ada.accountNumber, client: 'cli' };
    const open = () =>
      store.drafts.open({
        pageId,
        projectId: id,
        holder,
        baseRevision: 1,
        baseSha256: sha('i'),
        token: 't0',
      });
    const [a, b] = await Promise.all([open(), open()]);
    expect(a.id).toBe(b.id);
    expect(await store.drafts.find(pageId, { ...holder, client: 'other' })).toBeNull();

    const op = (n: number) => ({ kind: 'remove', target: `#x${n}` });
    const step = (expectedToken: string, token: string, applied: number, n: number) =>
      store.drafts.recordOperation({
        draftId: a.id,
        expectedToken,
        token,
        applied,
        sequence: n,
        operation: op(n),
        fingerprint: `f${n}`,
        answer: { n },
      });
    expect(await step('t0', 't1', 1, 1)).toBe(true);
    const racing = await Promise.all([step('t1', 't2a', 2, 2), step('t1', 't2b', 2, 2)]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    const token = (await store.drafts.find(pageId, holder))!.token;
    expect(['t2a', 't2b']).toContain(token);
    expect(await step('t1', 't9', 2, 9)).toBe(false);

    // An undo keeps the log; a new operation then drops what was redoable.
    expect(
      await store.drafts.recordMove({
        draftId: a.id,
        expectedToken: token,
        token: 't3',
        applied: 1,
        sequence: 3,
      }),
    ).toBe(true);
    expect(await store.drafts.operations(a.id)).toEqual([op(1), op(2)]);
    expect(await step('t3', 't4', 2, 4)).toBe(true);
    const draft = (await store.drafts.find(pageId, holder))!;
    expect(draft).toMatchObject({
      token: 't4',
      applied: 2,
      sequence: 4,
      lastFingerprint: 'f4',
      lastAnswer: { n: 4 },
    });
    expect(await store.drafts.operations(a.id)).toEqual([op(1), op(4)]);

    await store.drafts.rebase({ draftId: a.id, baseRevision: 2, baseSha256: sha('i2') });
    expect(await store.drafts.find(pageId, holder)).toMatchObject({
      token: 't4',
      applied: 0,
      baseRevision: 2,
    });
    expect(await store.drafts.operations(a.id)).toEqual([]);
    expect(await store.drafts.discard(a.id)).toBe(true);
    expect(await store.drafts.find(pageId, holder)).toBeNull();
  });

  it('writes operations without leaving the connection in relaxed durability', async () => {
    const { store, options } = await t.fresh();
    const { id, pageId, ada } = await project(store);
    const holder = { accountNumber: ada.accountNumber, client: 'cli' };
    const d = await store.drafts.open({
      pageId,
      projectId: id,
      holder,
      baseRevision: 1,
      baseSha256: sha('i'),
      token: 'a',
    });
    await store.drafts.recordOperation({
      draftId: d.id,
      expectedToken: 'a',
      token: 'b',
      applied: 1,
      sequence: 1,
      operation: { kind: 'remove', target: '#x' },
      fingerprint: 'f',
      answer: {},
    });
    if (t.kind === 'sqlite') {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db);
      expect(rows[0]?.synchronous).toBe(2);
    }
    // Seen by another process on the same data.
    const reopened = await openStore(options);
    try {
      expect(await reopened.drafts.operations(d.id)).toEqual([{ kind: 'remove', target: '#x' }]);
    } finally {
      await reopened.close();
    }
  });
});
