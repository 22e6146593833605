// The content lock (ContentRepository): bytes are deleted only when, under a lock writers also
// take, nothing uses them, and only after the transaction that dropped their last use committed.
import { expect, it } from 'vitest';
import type { Inspection } from '@galley/core';
import type { Store } from '@galley/store';
import { newId, openStore, sqliteFileOf } from '@galley/store';
import Database from 'better-sqlite3';
import { folderState, person } from './projects-fixtures.js';
import { describeStores, lockWaitBegun } from './stores.js';

const inspection: Inspection = {
  verdict: 'passed',
  media: [],
  checks: [],
  contracts: { 'media-contract': '1.0', 'svc-contract': '1.0' },
  inspected_at: '2030-01-01T00:00:00.000+00:00',
};

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function storedText(store: Store, text: string): Promise<string> {
  const put = await store.bytes.put([new TextEncoder().encode(text)]);
  if (!put.ok) throw new Error('setup');
  return put.sha256;
}

const fileOf = (sha256: string) => ({
  path: 'a.txt',
  sha256,
  mediaType: 'text/plain',
  size: 1,
  schemaUri: null,
});

async function assetWith(scope: Pick<Store, 'assets'>, sha256: string) {
  return scope.assets.create({
    id: newId('ast'),
    owner: 'user:1',
    kind: 'data',
    title: 'Asset',
    files: [fileOf(sha256)],
    inspection,
  });
}

describeStores('content lock', (t) => {
  it('keeps bytes a writer holds until it commits, though nothing used them when release began', async () => {
    const sha256 = await storedText(t.store, 'kept by a writer');
    const kept = deferred();
    const gate = deferred();
    const writer = t.store.transaction(async (tx) => {
      expect(await tx.content.keep([sha256])).toEqual([]);
      kept.resolve();
      await gate.promise;
      return assetWith(tx, sha256);
    });
    await kept.promise;
    // Nothing has committed a use yet: the release must wait for the writer, not delete.
    const release = t.store.content.release([sha256]);
    if (t.kind === 'postgres') await Promise.race([lockWaitBegun(t.store), release]);
    gate.resolve();
    const asset = await writer;
    expect(await release).toEqual([]);
    expect(await t.store.bytes.has(sha256)).toBe(true);
    expect(await t.store.assets.referencedAmong([sha256])).toEqual(new Set([sha256]));
    expect(asset.currentRevision).toBe(1);
  });

  it('answers the contents a release deleted before the writer kept them', async () => {
    const gone = await storedText(t.store, 'released first');
    const here = await storedText(t.store, 'still used');
    await assetWith(t.store, here);
    expect(await t.store.content.release([gone, here])).toEqual([gone]);
    const missing = await t.store.transaction((tx) => tx.content.keep([gone, here, gone]));
    expect(missing).toEqual([gone]);
  });

  it('looks on disk only for contents the base revision does not hold while it is kept', async () => {
    const held = await storedText(t.store, 'held by the base');
    const gone = await storedText(t.store, 'released first, again');
    const asset = await assetWith(t.store, held);
    expect(await t.store.content.release([gone])).toEqual([gone]);
    // Bytes of a revision in use are never released; removed behind the store's back, they show
    // that the disk is not asked about them.
    expect(await t.store.bytes.delete(held)).toBe(true);
    const from = { assetId: asset.id, number: 1, sha256s: [held] };
    const keep = (base?: typeof from) =>
      t.store.transaction((tx) => tx.content.keep([held, gone], base));
    expect(await keep(from)).toEqual([gone]);
    expect(await keep()).toEqual([held, gone]);
    expect(await keep({ ...from, number: 2 })).toEqual([held, gone]);
    await t.store.assets.eraseRevision(asset.id, 1, null);
    expect(await keep(from)).toEqual([held, gone]);
  });

  it('deletes nothing for a write rolled back, and refuses to release inside a transaction', async () => {
    const sha256 = await storedText(t.store, 'erase rolled back');
    const asset = await assetWith(t.store, sha256);
    const rolledBack = t.store.transaction(async (tx) => {
      const used = await tx.assets.eraseRevision(asset.id, 1, null);
      await expect(tx.content.release(used)).rejects.toThrow(/after the transaction/);
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');
    expect(await t.store.content.release([sha256])).toEqual([]);
    expect(await t.store.bytes.has(sha256)).toBe(true);
    const used = await t.store.assets.eraseRevision(asset.id, 1, null);
    expect(await t.store.content.release(used)).toEqual([sha256]);
    expect(await t.store.bytes.has(sha256)).toBe(false);
  });

  it('never releases contents kept for good (the editing interface shares the byte store)', async () => {
    const kept = await storedText(t.store, 'a folder file of a project');
    const unused = await storedText(t.store, 'nothing uses this');
    await t.store.content.keepForever([kept, kept]);
    await t.store.content.keepForever([kept]); // again: nothing changes
    expect(await t.store.content.release([kept, unused])).toEqual([unused]);
    expect(await t.store.bytes.has(kept)).toBe(true);
    expect(await t.store.bytes.has(unused)).toBe(false);
  });

  it('keeps a whole large folder in one go, its last content too', async () => {
    const last = await storedText(t.store, 'the last file of a large folder');
    const others = Array.from({ length: 1_499 }, (_, i) => i.toString(16).padStart(64, '0'));
    await t.store.content.keepForever([...others, last]);
    expect(await t.store.content.release([last])).toEqual([]);
    expect(await t.store.bytes.has(last)).toBe(true);
  });

  it('keeps only inside a transaction', async () => {
    await expect(t.store.content.keep([])).rejects.toThrow(/inside the writing transaction/);
  });
});

describeStores('contents kept for good, recorded when the table came', (t) => {
  // The migration fills the table from what projects already hold: a store made before it
  // (here: its table dropped and the migration forgotten) keeps its projects' bytes too.
  if (t.kind === 'sqlite')
    it('keeps the folder files and confirmed ZIPs of existing projects', async () => {
      const { store, options } = await t.fresh();
      const fileBytes = await storedText(store, 'seed-index');
      const owner = await person(store, 'keeper@example.org');
      await store.projects.create({
        accountNumber: owner.accountNumber,
        byName: owner.name,
        state: folderState('Kept', { 'index.html': 'seed-index' }),
      });
      await store.close();
      if (options.kind !== 'sqlite') throw new Error('a SQLite store was asked for');
      const file = sqliteFileOf(options.dataDir);
      const raw = new Database(file);
      raw.exec(
        `drop table kept_contents; delete from kysely_migration where name = '005_kept_contents'`,
      );
      raw.close();
      const reopened = await openStore(options);
      try {
        expect(await reopened.content.release([fileBytes])).toEqual([]);
        expect(await reopened.bytes.has(fileBytes)).toBe(true);
      } finally {
        await reopened.close();
      }
    });
});
