// A first answer that shows a revision in full is stored without that revision's files and
// inspection (the revision keeps them), and every resend is still given it byte for byte: while
// the asset lives, and after it is deleted for good (by a request, or by the sweeper).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { sweepOnce, TRASH_RETENTION_SECONDS } from '../../src/assets/service/sweeper.js';
import type { Call, Served } from './helpers.js';
import { createProduction, key, serveStore } from './helpers.js';

// Punctuation a database collation may order apart from byte order (PostgreSQL's en_US does):
// the answer lists files as the write did, whatever order they are read back in.
const files = ['a-b.css', 'a.b.css', 'a_b.css', 'ab.css', 'a1.css'].map((name, i) => ({
  path: `canvas/${name}`,
  text: `.f${i}{}`,
}));

describeStores('answers that show a revision', (t) => {
  let served: Served;
  let call: Call;
  beforeAll(async () => {
    served = await serveStore(t.store, t.clock);
    call = served.call;
  });
  afterAll(() => served.close());

  /** A revision of a new production: its request, first answer, and how to resend it. */
  async function productionWithRevision(before?: (id: string) => Promise<void>) {
    const asset = await createProduction(call, { files });
    await before?.(asset.id);
    const json = {
      request_key: key(),
      base_revision: 1,
      put: [{ path: 'canvas/a_b.css', text: '.changed{}' }],
      remove: ['canvas/ab.css'],
    };
    const send = () => call('POST', `/assets/${asset.id}/revisions`, { json });
    const first = await send();
    expect(first.status).toBe(201);
    return { asset, json, send, first };
  }

  const trash = async (id: string) => {
    const json = { request_key: key(), state: 'deleted' };
    expect((await call('PUT', `/assets/${id}/state`, { json })).status).toBe(200);
  };

  const storedRecord = async (requestKey: string) => {
    const record = await t.store.requestKeys.find(served.accountNumber, requestKey);
    if (record?.state !== 'done') throw new Error(`the key is ${JSON.stringify(record)}`);
    return record;
  };

  it('stores a revision answer without its files and inspection, and replays it byte for byte', async () => {
    const { asset, json, send, first } = await productionWithRevision();
    const record = await storedRecord(json.request_key);
    expect(record.shows).toEqual({ assetId: asset.id, number: 2 });
    const stored = (record.answer.body as typeof first.body).asset.revision;
    expect([stored.files, stored.inspection]).toEqual([null, null]);
    t.clock.advanceSeconds(60);
    const again = await send();
    expect([again.status, again.headers.get('location')]).toEqual([
      201,
      first.headers.get('location'),
    ]);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(first.body.asset.revision.files.map((f) => f.path)).toEqual(
      first.body.asset.revision.files.map((f) => f.path).sort(),
    );
  });

  it('writes such answers out whole before the asset is deleted for good, and replays them', async () => {
    const { asset, json, send, first } = await productionWithRevision();
    await trash(asset.id);
    const remove = { request_key: key() };
    expect((await call('DELETE', `/assets/${asset.id}`, { json: remove })).status).toBe(204);
    const record = await storedRecord(json.request_key);
    expect(record.shows).toBeNull();
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.bytes.equals(first.bytes)).toBe(true);
  });

  it('does the same when the sweeper purges the trash', async () => {
    // Revised in the trash just before its 30 days are over: the answer outlives the asset.
    const { asset, json, send, first } = await productionWithRevision(async (id) => {
      await trash(id);
      t.clock.advanceSeconds(TRASH_RETENTION_SECONDS - 60);
    });
    t.clock.advanceSeconds(120);
    await sweepOnce(t.store, t.clock);
    expect((await call('GET', `/assets/${asset.id}`)).status).toBe(404);
    expect((await storedRecord(json.request_key)).shows).toBeNull();
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.bytes.equals(first.bytes)).toBe(true);
  });
});
