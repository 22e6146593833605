import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openStore } from '@galley/store';
import type { DraftRecord, Store } from '@galley/store';
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

/** Opens the draft of `at` on revision 1 with the first token `token`. */
const openDraft = (
  store: Store,
  at: { pageId: string; projectId: string; holder: { accountNumber: number; client: string } },
  token: string,
) => store.drafts.open({ ...at, baseRevision: 1, baseSha256: sha('i'), token });

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
    ).toEqual({ ok: true, released: true });
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
  it('keeps one draft per (page, account, client) and an append-only log that moves its token', async () => {
    const { store } = await t.fresh();
    const { id, pageId, ada } = await project(store);
    const holder = { accountNumber: ada.accountNumber, client: 'cli' };
    const open = () => openDraft(store, { pageId, projectId: id, holder }, 't0');
    const [a, b] = await Promise.all([open(), open()]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ token: 't0', sequence: 0, projectId: id, lastAnswer: null });
    expect(await store.drafts.find(pageId, { ...holder, client: 'other' })).toBeNull();

    const op = (n: number) => ({ kind: 'remove', target: `#x${n}` });
    const append = (on: DraftRecord, token: string, n: number) =>
      store.drafts.append(on, {
        kind: 'operation',
        token,
        operation: op(n),
        fingerprint: `f${n}`,
        answer: { n },
      });
    expect(await append(a, 't1', 1)).toBe(true);
    // Two requests decided on the same newest event: one appends, the other is refused.
    const first = (await store.drafts.find(pageId, holder))!;
    const racing = await Promise.all([append(first, 't2a', 2), append(first, 't2b', 2)]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    const now = (await store.drafts.find(pageId, holder))!;
    expect(['t2a', 't2b']).toContain(now.token);
    expect(now).toMatchObject({ sequence: 2, lastFingerprint: 'f2', lastAnswer: { n: 2 } });

    // Undo and redo are events too; an operation after an undo drops what was redoable.
    expect(await store.drafts.append(now, { kind: 'undo', token: 't3' })).toBe(true);
    const afterUndo = (await store.drafts.find(pageId, holder))!;
    expect(afterUndo).toMatchObject({
      token: 't3',
      sequence: 3,
      lastFingerprint: null,
      lastAnswer: null,
    });
    expect(await store.drafts.log(afterUndo)).toEqual({ operations: [op(1), op(2)], applied: 1 });
    // A record read before newer events were appended (by another process) reads the log as
    // of its own token, never with the events after it.
    expect(await store.drafts.log(now)).toEqual({ operations: [op(1), op(2)], applied: 2 });
    expect(await append(afterUndo, 't4', 4)).toBe(true);
    const afterOp = (await store.drafts.find(pageId, holder))!;
    expect(await store.drafts.log(afterOp)).toEqual({ operations: [op(1), op(4)], applied: 2 });
    expect(await store.drafts.log(afterUndo)).toEqual({ operations: [op(1), op(2)], applied: 1 });

    // One read for an editing request: the page, the role, the lock in force and the draft.
    await store.projectLocks.acquire({
      projectId: id,
      holder,
      kind: 'agent',
      label: 'l',
      ttlSeconds: 60,
    });
    const context = await store.drafts.editing(pageId, ada.accountNumber, 'cli');
    expect(context).toMatchObject({
      access: { role: 'owner', page: { id: pageId, file: 'index.html' }, project: { id } },
      lock: { client: 'cli', holderName: 'Ada' },
      draft: { id: a.id, token: 't4', sequence: 4, lastAnswer: { n: 4 } },
    });
    expect((await store.drafts.editing(pageId, ada.accountNumber, null))?.draft).toBeNull();
    expect(await store.drafts.editing(pageId, ada.accountNumber + 99, 'cli')).toBeNull();
    t.clock.advanceSeconds(60);
    expect((await store.drafts.editing(pageId, ada.accountNumber, 'cli'))?.lock).toBeNull();

    // A save folds the log into the base; the token stays and numbering goes on.
    const saved = (await store.drafts.find(pageId, holder))!;
    await store.drafts.rebase({ draft: saved, baseRevision: 2, baseSha256: sha('i2') });
    const rebased = (await store.drafts.find(pageId, holder))!;
    expect(rebased).toMatchObject({ token: 't4', sequence: 4, baseSequence: 4, baseRevision: 2 });
    expect(await store.drafts.log(rebased)).toEqual({ operations: [], applied: 0 });
    // A writer still deciding on an older event cannot slip under the new base.
    expect(await append(afterUndo, 'late', 9)).toBe(false);
    expect(await append(rebased, 't5', 5)).toBe(true);
    const continued = (await store.drafts.find(pageId, holder))!;
    expect(await store.drafts.log(continued)).toEqual({ operations: [op(5)], applied: 1 });
    expect(await store.drafts.discard(a.id)).toBe(true);
    expect(await store.drafts.find(pageId, holder)).toBeNull();
  });

  it('remembers an editing read, moves it with its own draft, forgets it on any other change', async () => {
    const { store, options } = await t.fresh();
    const { id, pageId, ada, bob } = await project(store);
    await store.projectMembers.put(id, bob.accountNumber, 'editor');
    const holder = { accountNumber: ada.accountNumber, client: 'cli' };
    const read = () => store.drafts.editing(pageId, ada.accountNumber, 'cli');
    const draft = await openDraft(store, { pageId, projectId: id, holder }, 't0');
    expect((await read())?.draft).toEqual(draft);
    // The draft's own events: each read answers as the store has it, the answer included.
    let row = draft;
    for (const n of [1, 2, 3]) {
      const event = {
        kind: 'operation' as const,
        token: `t${n}`,
        fingerprint: `f${n}`,
        answer: { n },
      };
      expect(await store.drafts.append(row, event)).toBe(true);
      row = (await store.drafts.find(pageId, holder))!;
      expect(row).toMatchObject({ token: `t${n}`, sequence: n, lastAnswer: { n } });
      expect((await read())?.draft).toEqual(row);
    }
    // An event of another draft of the page leaves this one as it is.
    const bobs = { accountNumber: bob.accountNumber, client: 'cli' };
    const other = await openDraft(store, { pageId, projectId: id, holder: bobs }, 'b0');
    await read();
    expect(await store.drafts.append(other, { kind: 'operation', token: 'b1' })).toBe(true);
    expect((await read())?.draft).toEqual(row);
    // Any other change is seen at once: the lock, the role, another process's event.
    expect((await read())?.lock).toBeNull();
    await store.projectLocks.acquire({
      projectId: id,
      holder,
      kind: 'agent',
      label: 'l',
      ttlSeconds: 60,
    });
    expect((await read())?.lock).toMatchObject({ client: 'cli' });
    expect((await store.drafts.editing(pageId, bob.accountNumber, null))?.access.role).toBe(
      'editor',
    );
    await store.projectMembers.put(id, bob.accountNumber, 'viewer');
    expect((await store.drafts.editing(pageId, bob.accountNumber, null))?.access.role).toBe(
      'viewer',
    );
    const elsewhere = await openStore(options);
    try {
      const event = { kind: 'undo' as const, token: 'elsewhere' };
      expect(await elsewhere.drafts.append(row, event)).toBe(true);
    } finally {
      await elsewhere.close();
    }
    expect((await read())?.draft).toMatchObject({
      token: 'elsewhere',
      sequence: 4,
      lastAnswer: null,
    });
    expect((await read())?.draft).toEqual(await store.drafts.find(pageId, holder));
  });

  it('keeps an editing read remembered past the events this process stores (SQLite)', async () => {
    const { store } = await t.fresh();
    const { id, pageId, ada } = await project(store);
    const holder = { accountNumber: ada.accountNumber, client: 'cli' };
    await openDraft(store, { pageId, projectId: id, holder }, 't0');
    const read = () => store.drafts.editing(pageId, ada.accountNumber, 'cli');
    const remembered = await read();
    const event = { kind: 'draft.changed', projectId: id, accountNumber: null, data: { n: 1 } };
    await store.events.appendAll([event, event]);
    let queries = 0;
    store.telemetry.onQuery(() => (queries += 1));
    try {
      expect(await read()).toEqual(remembered);
    } finally {
      store.telemetry.onQuery(() => undefined);
    }
    // No event changes an editing context; PostgreSQL remembers nothing outside a fresh check.
    expect(queries).toBe(store.kind === 'sqlite' ? 0 : 1);
  });

  it('appends without leaving the connection in relaxed durability', async () => {
    const { store, options } = await t.fresh();
    const { id, pageId, ada } = await project(store);
    const holder = { accountNumber: ada.accountNumber, client: 'cli' };
    const d = await openDraft(store, { pageId, projectId: id, holder }, 'a');
    const operation = { kind: 'remove', target: '#x' };
    expect(await store.drafts.append(d, { kind: 'operation', token: 'b', operation })).toBe(true);
    const level = async (db: typeof store.db) =>
      (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous;
    // Every statement after a relaxed write runs at FULL (2), a transaction's included.
    if (t.kind === 'sqlite') expect(await level(store.db)).toBe(2);
    const next = { ...d, token: 'b', sequence: d.sequence + 1 };
    expect(await store.drafts.append(next, { kind: 'operation', token: 'c', operation })).toBe(
      true,
    );
    if (t.kind === 'sqlite') {
      expect(await store.db.transaction().execute((tx) => level(tx))).toBe(2);
    }
    // Seen by another process on the same data.
    const reopened = await openStore(options);
    try {
      const found = (await reopened.drafts.find(pageId, holder))!;
      expect(found.token).toBe('c');
      expect(await reopened.drafts.log(found)).toEqual({
        operations: [operation, operation],
        applied: 2,
      });
    } finally {
      await reopened.close();
    }
  });
});
