import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { NewEvent, Store } from '@galley/store';
import { describeStores } from './stores.js';
import { folderState, person } from './projects-fixtures.js';

async function twoProjects(store: Store) {
  const ada = await person(store, 'ada@example.org', 'Ada');
  const create = (title: string) =>
    store.projects.create({
      accountNumber: ada.accountNumber,
      byName: 'Ada',
      state: folderState(title, { 'index.html': 'i' }),
    });
  return { ada, first: (await create('First')).id, second: (await create('Second')).id };
}

const draftChanged = (projectId: string, n: number): NewEvent => ({
  kind: 'draft.changed',
  projectId,
  accountNumber: null,
  data: { project_id: projectId, n },
  relaxed: true,
});

const newest = async (store: Store) => (await store.events.bounds()).newest;

describeStores('events', (t) => {
  it('numbers a batch in the order given and reads it back so, relaxed or not', async () => {
    const { store } = await t.fresh();
    const { ada, first, second } = await twoProjects(store);
    const asset: NewEvent = {
      kind: 'asset.renamed',
      projectId: null,
      accountNumber: ada.accountNumber,
      data: { asset_id: 'ast_1', title: 'T' },
    };
    for (const batch of [
      [draftChanged(first, 1), draftChanged(second, 2), draftChanged(first, 3)],
      [draftChanged(second, 4), asset, draftChanged(first, 5)],
    ]) {
      const before = await newest(store);
      const { records: stored } = await store.events.appendAll(batch);
      expect(stored.map((event) => event.seq)).toEqual([before + 1, before + 2, before + 3]);
      expect(stored.map((event) => event.data)).toEqual(batch.map((event) => event.data));
      expect(stored.every((event) => !('relaxed' in event))).toBe(true);
      expect(await store.events.after(before, 10)).toEqual(stored);
    }
  });

  it('stores relaxed events that no webhook wants in one statement, leaving the connection at FULL', async () => {
    const { store } = await t.fresh();
    const { first, second } = await twoProjects(store);
    const statements: string[] = [];
    store.telemetry.onQuery(() => statements.push('statement'));
    try {
      await store.events.appendAll([draftChanged(first, 1), draftChanged(second, 2)]);
    } finally {
      store.telemetry.onQuery(() => undefined);
    }
    // SQLite: the webhooks' one read, then the insert committed on its own (no BEGIN, no COMMIT).
    // PostgreSQL stores them in a transaction of its own, as every batch (its NOTIFY is sent at
    // commit).
    if (t.kind === 'sqlite') {
      expect(statements).toHaveLength(2);
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db);
      expect(rows[0]?.synchronous).toBe(2);
    }
    expect((await store.events.after(0, 10)).map((event) => event.data.n)).toEqual([1, 2]);
  });

  it('queues deliveries for the webhooks that asked, a relaxed batch included', async () => {
    const { store } = await t.fresh();
    const { ada, first, second } = await twoProjects(store);
    const hook = (projectId: string | null, kinds: string[]) =>
      store.webhooks.create({
        accountNumber: ada.accountNumber,
        projectId,
        url: 'https://example.org/hook',
        secret: 'c2VjcmV0',
        kinds,
      });
    const drafts = await hook(first, ['draft.changed']);
    const saves = await hook(second, ['project.saved']);
    const assets = await hook(null, ['asset.renamed']);
    const relaxed = await store.events.appendAll([draftChanged(second, 1), draftChanged(first, 2)]);
    expect(relaxed.deliveries).toBe(1);
    const mixed = await store.events.appendAll([
      draftChanged(second, 3),
      { kind: 'asset.renamed', projectId: null, accountNumber: ada.accountNumber, data: {} },
      { kind: 'project.saved', projectId: second, accountNumber: null, data: {} },
    ]);
    expect(mixed.deliveries).toBe(2);
    const seqsOf = async (webhookId: string) =>
      (await store.webhooks.deliveries(webhookId, 10)).map((delivery) => delivery.eventSeq);
    expect(await seqsOf(drafts.id)).toEqual([relaxed.records[1]!.seq]);
    expect(await seqsOf(assets.id)).toEqual([mixed.records[1]!.seq]);
    expect(await seqsOf(saves.id)).toEqual([mixed.records[2]!.seq]);
  });

  it('claims due deliveries once, and finds none due with a read alone', async () => {
    const { store } = await t.fresh();
    const { ada, first } = await twoProjects(store);
    const statements: string[] = [];
    const claim = async () => {
      statements.length = 0;
      store.telemetry.onQuery(() => statements.push('statement'));
      try {
        return await store.webhooks.claimDue(8, new Date(Date.parse('2030-01-01T00:01:00Z')));
      } finally {
        store.telemetry.onQuery(() => undefined);
      }
    };
    expect(await claim()).toEqual([]);
    expect(statements).toHaveLength(1); // no transaction: nothing was due
    const hook = await store.webhooks.create({
      accountNumber: ada.accountNumber,
      projectId: first,
      url: 'https://example.org/hook',
      secret: 'c2VjcmV0',
      kinds: ['draft.changed'],
    });
    const {
      records: [event],
    } = await store.events.appendAll([draftChanged(first, 1)]);
    const claimed = await claim();
    expect(claimed.map((delivery) => [delivery.webhookId, delivery.eventSeq])).toEqual([
      [hook.id, event!.seq],
    ]);
    expect(await claim()).toEqual([]); // held by this claim until its time
  });
});
