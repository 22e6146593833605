import { expect, it } from 'vitest';
import type { Inspection } from '@galley/core';
import type { RequestKeyClaim, Store } from '@galley/store';
import {
  REQUEST_KEY_LEASE_SECONDS,
  REQUEST_KEY_RENEW_SECONDS,
  REQUEST_KEY_STALE_SECONDS,
  isoTime,
  newId,
} from '@galley/store';
import { describeStores, lockWaitBegun } from './stores.js';

type FileRecord = Awaited<ReturnType<Store['assets']['files']>>[number];

const inspection = (verdict: Inspection['verdict'], mediaIds: string[] = []): Inspection => ({
  verdict,
  media: mediaIds.map((id) => ({ id, version: 1, label: id, type: 'display', basis: 'canvas' })),
  checks: [],
  contracts: { 'media-contract': '1.0', 'svc-contract': '1.0' },
  inspected_at: '2030-01-01T00:00:00.000+00:00',
});

const sha = (n: number) => n.toString(16).padStart(64, '0');
const file = (path: string, n: number): FileRecord => ({
  path,
  sha256: sha(n),
  mediaType: 'text/plain',
  size: n,
  schemaUri: null,
});

async function makeAsset(
  store: Store,
  input: { owner?: string; title?: string; kind?: string; files?: FileRecord[] } = {},
) {
  return store.assets.create({
    id: newId('ast'),
    owner: input.owner ?? 'user:1001',
    kind: input.kind ?? 'data',
    title: input.title ?? 'Asset',
    files: input.files ?? [file('a.txt', 1)],
    inspection: inspection('passed'),
  });
}

describeStores('assets', (t) => {
  it('creates an asset at revision 1 with its files and inspection', async () => {
    const asset = await makeAsset(t.store, { files: [file('b.txt', 2), file('a.txt', 1)] });
    expect(asset).toMatchObject({ state: 'active', currentRevision: 1, verdict: 'passed' });
    expect(await t.store.assets.find(asset.id)).toEqual(asset);
    expect((await t.store.assets.files(asset.id, 1)).map((f) => f.path)).toEqual([
      'a.txt',
      'b.txt',
    ]);
    const revision = await t.store.assets.revision(asset.id, 1);
    expect(revision).toMatchObject({
      number: 1,
      erasedAt: null,
      inspection: { verdict: 'passed' },
    });
    expect(await t.store.assets.revision(asset.id, 2)).toBeNull();
  });

  it('keeps every revision readable while new ones change only some paths', async () => {
    const asset = await makeAsset(t.store, { files: [file('a.txt', 1), file('b.txt', 2)] });
    const r2 = await t.store.assets.addRevision({
      assetId: asset.id,
      number: 2,
      put: [file('b.txt', 3), file('c.txt', 4)],
      remove: ['a.txt'],
      inspection: inspection('failed', ['banner']),
    });
    expect(r2).toMatchObject({ ok: true, asset: { currentRevision: 2, verdict: 'failed' } });
    const r3 = await t.store.assets.addRevision({
      assetId: asset.id,
      number: 3,
      put: [file('a.txt', 5)],
      remove: [],
      inspection: inspection('passed'),
    });
    expect(r3).toMatchObject({ ok: true, asset: { currentRevision: 3 } });
    const shas = async (n: number) =>
      (await t.store.assets.files(asset.id, n)).map((f) => `${f.path}:${f.size}`);
    expect(await shas(1)).toEqual(['a.txt:1', 'b.txt:2']);
    expect(await shas(2)).toEqual(['b.txt:3', 'c.txt:4']);
    expect(await shas(3)).toEqual(['a.txt:5', 'b.txt:3', 'c.txt:4']);
    expect(await t.store.assets.file(asset.id, 2, 'a.txt')).toBeNull();
    expect(await t.store.assets.file(asset.id, 1, 'a.txt')).toMatchObject({ size: 1 });
    const revisions = await t.store.assets.revisions(asset.id, { limit: 10 });
    expect(revisions.map((r) => [r.number, r.verdict])).toEqual([
      [3, 'passed'],
      [2, 'failed'],
      [1, 'passed'],
    ]);
    expect(await t.store.assets.revisions(asset.id, { before: 3, limit: 1 })).toMatchObject([
      { number: 2, media: [{ id: 'banner' }] },
    ]);
  });

  it('lets exactly one of two writers on the same base win', async () => {
    const asset = await makeAsset(t.store);
    const write = (n: number) =>
      t.store.assets.addRevision({
        assetId: asset.id,
        number: 2,
        put: [file('a.txt', n)],
        remove: [],
        inspection: inspection('passed'),
      });
    const results = await Promise.all([write(10), write(11)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, code: 'conflict', currentRevision: 2 });
    expect(await t.store.assets.files(asset.id, 2)).toHaveLength(1);
  });

  it('answers gone to a revision of an asset that no longer exists', async () => {
    const written = await t.store.assets.addRevision({
      assetId: 'ast_never_made',
      number: 2,
      put: [file('a.txt', 1)],
      remove: [],
      inspection: inspection('passed'),
    });
    expect(written).toEqual({ ok: false, code: 'gone' });
  });

  it('lists by owner, state, kind, title, medium and verdict, in stable pages', async () => {
    const { store } = await t.fresh();
    const made = [];
    for (const [i, title] of ['Beta', 'alpha', 'Gamma 100%', 'delta_x'].entries()) {
      made.push(await makeAsset(store, { title, kind: i % 2 ? 'image' : 'data' }));
      t.clock.advanceSeconds(1);
    }
    await makeAsset(store, { title: 'Other', owner: 'user:1002' });
    await store.assets.addRevision({
      assetId: made[0]!.id,
      number: 2,
      put: [],
      remove: [],
      inspection: inspection('failed', ['banner', 'social']),
    });
    const list = (filter: Partial<Parameters<Store['assets']['list']>[0]> = {}) =>
      store.assets
        .list({ owners: ['user:1001'], state: 'active', sort: 'title', limit: 50, ...filter })
        .then((rows) => rows.map((r) => r.title));
    expect(await list()).toEqual(['alpha', 'Beta', 'delta_x', 'Gamma 100%']);
    expect(await list({ sort: 'updated' })).toEqual(['Beta', 'delta_x', 'Gamma 100%', 'alpha']);
    expect(await list({ kinds: ['image'] })).toEqual(['alpha', 'delta_x']);
    expect(await list({ q: 'A_' })).toEqual(['delta_x']);
    expect(await list({ q: '0%' })).toEqual(['Gamma 100%']);
    expect(await list({ mediumId: 'social' })).toEqual(['Beta']);
    expect(await list({ mediumId: 'soc' })).toEqual([]);
    expect(await list({ verdict: 'failed' })).toEqual(['Beta']);
    expect(await list({ owners: ['user:1001', 'user:1002'] })).toHaveLength(5);
    const first = await store.assets.list({
      owners: ['user:1001'],
      state: 'active',
      sort: 'updated',
      limit: 2,
    });
    const last = first[first.length - 1]!;
    const rest = await store.assets.list({
      owners: ['user:1001'],
      state: 'active',
      sort: 'updated',
      limit: 50,
      after: { key: last.updatedAt, id: last.id },
    });
    expect([...first, ...rest].map((r) => r.title)).toEqual(await list({ sort: 'updated' }));
  });

  it('moves states, noting when', async () => {
    const asset = await makeAsset(t.store);
    await t.store.assets.setState(asset.id, 'deleted');
    const trashed = await t.store.assets.find(asset.id);
    expect(trashed).toMatchObject({ state: 'deleted', stateChangedAt: isoTime(t.clock.now()) });
    expect(await t.store.assets.trashedBefore(isoTime(t.clock.now()))).toContain(asset.id);
    await t.store.assets.rename(asset.id, 'Renamed');
    expect(await t.store.assets.find(asset.id)).toMatchObject({ title: 'Renamed' });
  });

  it('reads a locked row as the transaction holding it leaves it', async () => {
    const asset = await makeAsset(t.store);
    let second: Promise<string | undefined> | undefined;
    await t.store.transaction(async (tx) => {
      expect(await tx.assets.lockRow(asset.id)).toMatchObject({ state: 'active' });
      // Another writer decides on the same row meanwhile: it waits for this transaction.
      second = t.store.transaction(async (other) => (await other.assets.lockRow(asset.id))?.state);
      if (t.kind === 'postgres') await Promise.race([lockWaitBegun(t.store), second]);
      await tx.assets.setState(asset.id, 'archived');
    });
    expect(await second).toBe('archived');
    expect(await t.store.assets.lockRow('ast_absent')).toBeNull();
  });

  it('counts a content used while any revision with it is not erased', async () => {
    const shared = file('s.txt', 100);
    const asset = await makeAsset(t.store, { files: [shared, file('only1.txt', 101)] });
    await t.store.assets.addRevision({
      assetId: asset.id,
      number: 2,
      put: [file('only2.txt', 102)],
      remove: ['only1.txt'],
      inspection: inspection('passed'),
    });
    expect(await t.store.assets.eraseRevision(asset.id, 1, 'legal')).toEqual(
      expect.arrayContaining([sha(100), sha(101)]),
    );
    expect(await t.store.assets.referencedAmong([sha(100), sha(101)])).toEqual(new Set([sha(100)]));
    expect(await t.store.assets.revision(asset.id, 1)).toMatchObject({ eraseReason: 'legal' });
    await t.store.assets.eraseRevision(asset.id, 2, null);
    expect(await t.store.assets.referencedAmong([sha(100), sha(102)])).toEqual(new Set());
    expect((await t.store.assets.delete(asset.id)).sort()).toEqual([sha(100), sha(101), sha(102)]);
    expect(await t.store.assets.find(asset.id)).toBeNull();
  });

  it('releases bytes only when no revision and no live blob uses them', async () => {
    const { store } = await t.fresh();
    const created = await store.accounts.create({
      email: 'b@example.org',
      name: 'B',
      password: 'p',
    });
    if (!created.ok) throw new Error('setup');
    const account = created.account.accountNumber;
    const put = await store.bytes.put([new TextEncoder().encode('hello')]);
    if (!put.ok) throw new Error('setup');
    const asset = await makeAsset(store, { files: [{ ...file('h.txt', 5), sha256: put.sha256 }] });
    expect(
      await store.blobs.record({ accountNumber: account, sha256: put.sha256, size: 5 }),
    ).toMatchObject({ created: true });
    expect(await store.content.release([put.sha256])).toEqual([]);
    const shas = await store.assets.eraseRevision(asset.id, 1, null);
    expect(await store.content.release(shas)).toEqual([]); // the blob still holds it
    await store.blobs.drop(account, shas);
    expect(await store.content.release(shas)).toEqual([put.sha256]);
    expect(await store.bytes.has(put.sha256)).toBe(false);
  });

  it('expires blobs after a day, and a new upload restarts the day', async () => {
    const { store } = await t.fresh();
    const created = await store.accounts.create({
      email: 'c@example.org',
      name: 'C',
      password: 'p',
    });
    if (!created.ok) throw new Error('setup');
    const accountNumber = created.account.accountNumber;
    const blob = { accountNumber, sha256: sha(7), size: 7 };
    expect(await store.blobs.record(blob)).toMatchObject({ created: true });
    t.clock.advanceSeconds(3600);
    expect(await store.blobs.record(blob)).toMatchObject({ created: false });
    t.clock.advanceSeconds(86_400 - 1);
    expect(await store.blobs.findLive(accountNumber, sha(7))).toEqual({ size: 7 });
    expect(await store.blobs.expire()).toEqual([]);
    t.clock.advanceSeconds(1);
    expect(await store.blobs.findLive(accountNumber, sha(7))).toBeNull();
    expect(await store.blobs.heldAmong([sha(7)])).toEqual(new Set());
    expect(await store.blobs.record(blob)).toMatchObject({ created: true });
    t.clock.advanceSeconds(86_400);
    expect(await store.blobs.expire()).toEqual([sha(7)]);
  });

  it('creates a blob once of many concurrent records of the same new bytes', async () => {
    const accountNumber = await keyHolder(t.store, 'blobs-at-once@example.org');
    const blob = { accountNumber, sha256: sha(8), size: 8 };
    const createdOf = async () => {
      const records = await Promise.all(
        Array.from({ length: 12 }, () => t.store.blobs.record(blob)),
      );
      return records.filter((r) => r.created).length;
    };
    expect(await createdOf()).toBe(1);
    expect(await createdOf()).toBe(0); // held now
    t.clock.advanceSeconds(86_400); // expired, not yet swept: taken up again, once
    expect(await createdOf()).toBe(1);
    expect(await t.store.blobs.findLive(accountNumber, sha(8))).toEqual({ size: 8 });
  });

  async function keyHolder(store: Store, email: string) {
    const created = await store.accounts.create({ email, name: 'K', password: 'p' });
    if (!created.ok) throw new Error('setup');
    return created.account.accountNumber;
  }

  const claimToken = (claim: RequestKeyClaim) => {
    if (!claim.ok) throw new Error(`not claimed: ${JSON.stringify(claim)}`);
    return claim.token;
  };

  it('lets one of many concurrent claims of a request key win, and replays its answer', async () => {
    const { store } = await t.fresh();
    const accountNumber = await keyHolder(store, 'd@example.org');
    const key = crypto.randomUUID();
    const claims = await Promise.all(
      Array.from({ length: 20 }, () =>
        store.requestKeys.claim({ accountNumber, key, fingerprint: 'f1' }),
      ),
    );
    expect(claims.filter((c) => c.ok)).toHaveLength(1);
    expect(claims.find((c) => !c.ok)).toEqual({
      ok: false,
      record: { state: 'running', fingerprint: 'f1' },
    });
    const token = claimToken(claims.find((c) => c.ok)!);
    const answer = { status: 201, headers: { Location: '/x' }, body: { asset: { id: 'x' } } };
    expect(await store.requestKeys.complete({ accountNumber, key, token, answer })).toBe(true);
    expect(await store.requestKeys.claim({ accountNumber, key, fingerprint: 'f2' })).toEqual({
      ok: false,
      record: { state: 'done', fingerprint: 'f1', answer, shows: null },
    });
    t.clock.advanceSeconds(7 * 86_400);
    expect(await store.requestKeys.find(accountNumber, key)).toBeNull();
    expect(await store.requestKeys.purgeExpired()).toBe(1);
    const again = claimToken(
      await store.requestKeys.claim({ accountNumber, key, fingerprint: 'f2' }),
    );
    await store.requestKeys.abandon({ accountNumber, key, token: again });
    expect(await store.requestKeys.find(accountNumber, key)).toBeNull();
  });

  it('never takes over a finished claim, and reuses a key only after its 7 days', async () => {
    const { store } = await t.fresh();
    const input = {
      accountNumber: await keyHolder(store, 'f@example.org'),
      key: 'k',
      fingerprint: 'f',
    };
    const token = claimToken(await store.requestKeys.claim(input));
    const answer = { status: 200, headers: {}, body: { ok: 1 } };
    await store.requestKeys.complete({ ...input, token, answer });
    t.clock.advanceSeconds(7 * 86_400 - 1);
    expect(await store.requestKeys.claim(input)).toEqual({
      ok: false,
      record: { state: 'done', fingerprint: 'f', answer, shows: null },
    });
    t.clock.advanceSeconds(1); // expired but not yet purged: a new request of any body wins it
    const next = claimToken(await store.requestKeys.claim({ ...input, fingerprint: 'g' }));
    expect(next).not.toBe(token);
    expect(await store.requestKeys.find(input.accountNumber, input.key)).toEqual({
      state: 'running',
      fingerprint: 'g',
    });
  });

  it('takes over a claim whose lease ended (its process died), once, by the same request only', async () => {
    const { store } = await t.fresh();
    const input = {
      accountNumber: await keyHolder(store, 'e@example.org'),
      key: crypto.randomUUID(),
      fingerprint: 'f',
    };
    const dead = claimToken(await store.requestKeys.claim(input));
    t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS - 1);
    expect(await store.requestKeys.claim(input)).toEqual({
      ok: false,
      record: { state: 'running', fingerprint: 'f' },
    });
    t.clock.advanceSeconds(1);
    // Another request with the key is still a reuse: the running record keeps its fingerprint.
    expect(await store.requestKeys.claim({ ...input, fingerprint: 'other' })).toEqual({
      ok: false,
      record: { state: 'running', fingerprint: 'f' },
    });
    const claims = await Promise.all(
      Array.from({ length: 20 }, () => store.requestKeys.claim(input)),
    );
    expect(claims.filter((c) => c.ok)).toHaveLength(1);
    const live = claimToken(claims.find((c) => c.ok)!);
    expect(live).not.toBe(dead);
    // The old holder, should it come back, can neither renew, complete nor abandon the claim.
    const hold = { accountNumber: input.accountNumber, key: input.key };
    const stale = { status: 500, headers: {}, body: 'stale' };
    expect(await store.requestKeys.renew({ ...hold, token: dead })).toBe(false);
    expect(await store.requestKeys.complete({ ...hold, token: dead, answer: stale })).toBe(false);
    await store.requestKeys.abandon({ ...hold, token: dead });
    expect(await store.requestKeys.find(hold.accountNumber, hold.key)).toEqual({
      state: 'running',
      fingerprint: 'f',
    });
    const answer = { status: 201, headers: {}, body: { revision: 2 } };
    expect(await store.requestKeys.complete({ ...hold, token: live, answer })).toBe(true);
    t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS * 10);
    expect(await store.requestKeys.claim(input)).toEqual({
      ok: false,
      record: { state: 'done', fingerprint: 'f', answer, shows: null },
    });
    expect(await store.requestKeys.renew({ ...hold, token: live })).toBe(false);
  });

  it('keeps a claim whose request renews its lease', async () => {
    const { store } = await t.fresh();
    const input = {
      accountNumber: await keyHolder(store, 'g@example.org'),
      key: 'k',
      fingerprint: 'f',
    };
    const token = claimToken(await store.requestKeys.claim(input));
    for (let i = 0; i < 10; i++) {
      t.clock.advanceSeconds(REQUEST_KEY_RENEW_SECONDS * 2);
      expect(await store.requestKeys.renew({ ...input, token })).toBe(true);
    }
    t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS - 1);
    expect(await store.requestKeys.claim(input)).toMatchObject({ ok: false });
    t.clock.advanceSeconds(1);
    expect(await store.requestKeys.claim(input)).toMatchObject({ ok: true });
    expect(await store.requestKeys.renew({ ...input, token })).toBe(false);
  });

  it('takes over a running claim without a lease (from before leases) after 15 minutes', async () => {
    const { store } = await t.fresh();
    const input = {
      accountNumber: await keyHolder(store, 'h@example.org'),
      key: 'k',
      fingerprint: 'f',
    };
    claimToken(await store.requestKeys.claim(input));
    await store.db
      .updateTable('request_keys')
      .set({ lease_until: null, claim_token: null })
      .where('request_key', '=', 'k')
      .execute();
    t.clock.advanceSeconds(REQUEST_KEY_STALE_SECONDS - 1);
    expect(await store.requestKeys.claim(input)).toMatchObject({ ok: false });
    t.clock.advanceSeconds(1);
    expect(await store.requestKeys.claim(input)).toMatchObject({ ok: true });
  });
});
