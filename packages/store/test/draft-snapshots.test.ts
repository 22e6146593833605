// Snapshots of open drafts: what a rebuild reads (the newest usable snapshot and the events after
// it, or the base and every event), passing over a snapshot the draft undid below, dropped by a
// save and by discarding the draft, on SQLite and PostgreSQL.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { DraftRecord, Store } from '@galley/store';
import { describeStores } from './stores.js';
import { folderState, person, sha } from './projects-fixtures.js';

const op = (n: number) => ({ kind: 'remove', target: `#x${n}` });

async function openedDraft(store: Store) {
  const ada = await person(store, 'ada@example.org', 'Ada');
  const { id } = await store.projects.create({
    accountNumber: ada.accountNumber,
    byName: 'Ada',
    state: folderState('S', { 'index.html': 'i' }),
  });
  const pageId = (await store.projectRevisions.pageIds(id)).get('index.html')!;
  const holder = { accountNumber: ada.accountNumber, client: 'cli' };
  await store.drafts.open({
    pageId,
    projectId: id,
    holder,
    baseRevision: 1,
    baseSha256: sha('i'),
    token: 't0',
  });
  const now = async () => (await store.drafts.find(pageId, holder))!;
  /** Appends operation `n` (or an undo, a redo) to the draft as it is now. */
  const event = async (kind: 'operation' | 'undo' | 'redo', n = 0): Promise<DraftRecord> => {
    const row = await now();
    const operation = kind === 'operation' ? { operation: op(n) } : {};
    expect(
      await store.drafts.append(row, { kind, token: `t${row.sequence + 1}`, ...operation }),
    ).toBe(true);
    return now();
  };
  return { now, event };
}

describeStores('draft snapshots', (t) => {
  it('restores from the newest usable snapshot, or the base when an undo went below them', async () => {
    const { store } = await t.fresh();
    const { now, event } = await openedDraft(store);
    for (let n = 1; n <= 3; n++) await event('operation', n);
    const at3 = await now();
    await store.draftSnapshots.keep(at3.id, { seq: 3, applied: 3, html: 'page after 3' });
    await event('operation', 4);
    await event('operation', 5);
    await store.draftSnapshots.keep(at3.id, { seq: 5, applied: 5, html: 'page after 5' });
    await event('operation', 6);
    await event('undo');

    // Only the events after the newest snapshot are read, counted from it.
    expect(await store.draftSnapshots.restore(await now())).toEqual({
      snapshot: { seq: 5, applied: 5, html: 'page after 5' },
      operations: [op(6)],
      applied: 0,
    });
    // As a record read earlier saw it: no snapshot or event after its own sequence.
    expect(await store.draftSnapshots.restore(at3)).toEqual({
      snapshot: { seq: 3, applied: 3, html: 'page after 3' },
      operations: [],
      applied: 0,
    });
    // To undo past the snapshot a draft was rebuilt from: an older one.
    expect(await store.draftSnapshots.restore(await now(), { below: 5 })).toMatchObject({
      snapshot: { seq: 3 },
      operations: [op(4), op(5), op(6)],
      applied: 2,
    });
    expect(await store.draftSnapshots.restore(await now(), { below: 3 })).toEqual({
      snapshot: null,
      operations: [1, 2, 3, 4, 5, 6].map(op),
      applied: 5,
    });

    // Undone below the newest snapshot, then a new operation: that snapshot is off the line.
    await event('undo');
    await event('undo');
    await event('operation', 7);
    expect(await store.draftSnapshots.restore(await now())).toEqual({
      snapshot: { seq: 3, applied: 3, html: 'page after 3' },
      operations: [op(7)],
      applied: 1,
    });
    // Undone below both: the base and every event.
    for (let i = 0; i < 3; i++) await event('undo');
    expect(await store.draftSnapshots.restore(await now())).toEqual({
      snapshot: null,
      operations: [op(1), op(2), op(3), op(7)],
      applied: 1,
    });
  });

  it('keeps the newest two; a save and a discard drop them; nothing is kept for a gone draft', async () => {
    const { store } = await t.fresh();
    const { now, event } = await openedDraft(store);
    for (let n = 1; n <= 3; n++) {
      await event('operation', n);
      await store.draftSnapshots.keep((await now()).id, { seq: n, applied: n, html: `p${n}` });
    }
    const row = await now();
    // The same snapshot again (another process took it too) changes nothing.
    await store.draftSnapshots.keep(row.id, { seq: 3, applied: 3, html: 'p3' });
    expect(await store.draftSnapshots.restore(row, { below: 3 })).toMatchObject({
      snapshot: { seq: 2 },
    });
    expect(await store.draftSnapshots.restore(row, { below: 2 })).toMatchObject({ snapshot: null });

    await store.drafts.rebase({ draft: row, baseRevision: 2, baseSha256: sha('i2') });
    expect(await store.draftSnapshots.restore(await now())).toEqual({
      snapshot: null,
      operations: [],
      applied: 0,
    });
    // A snapshot taken on the old base and stored after the save is never used on the new one.
    await store.draftSnapshots.keep(row.id, { seq: 3, applied: 3, html: 'old base' });
    await event('operation', 4);
    expect(await store.draftSnapshots.restore(await now())).toEqual({
      snapshot: null,
      operations: [op(4)],
      applied: 1,
    });

    expect(await store.drafts.discard(row.id)).toBe(true);
    await store.draftSnapshots.keep(row.id, { seq: 9, applied: 1, html: 'gone' });
    const { rows } = await sql<{ n: number }>`select count(*) as n from draft_snapshots`.execute(
      store.db,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
