// Erasing content and deleting assets for good, raced step by step (platform/hold.ts) against
// writes that reference the same bytes on a second server with its own connection (as a second
// process has): each write answers what it answers in sequence, and no asset points at bytes
// that are gone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '@galley/store';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { holdNext } from '../platform/hold.js';
import type { Call, Served } from './helpers.js';
import { createImage, createProduction, key, png, serveTwice, uploadBlob } from './helpers.js';

describeStores('writes racing an erase or a deletion of the bytes they use', (t) => {
  let a: Served;
  let storeB: Store;
  /** The account of server A, calling server B. */
  let onB: Call;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, storeB, onB, close } = await serveTwice(t));
  });
  afterAll(() => close());

  const erase = (id: string, n = 1) =>
    a.call('DELETE', `/assets/${id}/revisions/${n}/content`, { json: { request_key: key() } });

  /** Runs `write` on server B held just before its transaction, while `meanwhile` runs on A. */
  async function heldWrite<T>(write: () => Promise<T>, meanwhile: () => Promise<unknown>) {
    const held = holdNext(storeB, 'transaction');
    const answer = write();
    await held.reached;
    await meanwhile();
    held.release();
    return answer;
  }

  it('a duplicate that read its source before the erase committed answers 410', async () => {
    const image = await createImage(a.call, png(20, 20, 1));
    const duplicated = await heldWrite(
      () =>
        onB('POST', `/assets/${image.id}/duplicates`, {
          json: { request_key: key(), title: 'Dup' },
        }),
      async () => expect((await erase(image.id)).status).toBe(200),
    );
    expect(duplicated.status).toBe(410);
    expect(duplicated.body).toMatchObject({ code: 'content_erased' });
    const list = await a.call<{ assets: unknown[] }>('GET', '/assets?q=Dup');
    expect(list.body.assets).toEqual([]);
  });

  it('a copy whose source is erased meanwhile answers 422 on source.revision, as in sequence', async () => {
    const image = await createImage(a.call, png(21, 21, 2));
    const production = await createProduction(a.call);
    const copied = await heldWrite(
      () =>
        onB('POST', `/assets/${production.id}/copies`, {
          json: {
            request_key: key(),
            base_revision: 1,
            source: { asset: image.id },
            to: 'references/a/',
          },
        }),
      async () => expect((await erase(image.id)).status).toBe(200),
    );
    expect(copied.status).toBe(422);
    expect(copied.body).toMatchObject({
      errors: { 'source.revision': [expect.stringContaining('erased')] },
    });
    expect((await a.call('GET', `/assets/${production.id}`)).body.asset.revision.number).toBe(1);
  });

  it('a create from a blob whose content is erased meanwhile answers 422 no such blob', async () => {
    const bytes = png(22, 22, 3);
    const image = await createImage(a.call, bytes);
    const blob = await uploadBlob(a.call, bytes);
    const created = await heldWrite(
      () =>
        onB('POST', '/assets', {
          json: {
            request_key: key(),
            kind: 'image',
            title: 'From blob',
            files: [{ path: 'image.png', blob }],
          },
        }),
      async () => expect((await erase(image.id)).status).toBe(200),
    );
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({
      errors: {
        'files.0.blob': ['no such blob: never uploaded, expired (1 day), or its content erased'],
      },
    });
  });

  it('bytes taken up again between the erase and its deletion step stay', async () => {
    const json = { colors: [{ name: 'Ink', value: '#102030' }] };
    const create = (call: Call, title: string) =>
      call('POST', '/assets', {
        json: {
          request_key: key(),
          kind: 'data',
          title,
          files: [{ path: 'p.json', json, schema: 'svc://schemas/palette/1' }],
        },
      });
    const first = await create(a.call, 'Palette');
    expect(first.status).toBe(201);
    const held = holdNext(t.store.content, 'release');
    const erased = erase(first.body.asset.id);
    await held.reached;
    const again = await create(onB, 'Palette again');
    expect(again.status).toBe(201);
    held.release();
    expect((await erased).status).toBe(200);
    const read = await a.call('GET', `/assets/${again.body.asset.id}/files/p.json`);
    expect(read.status).toBe(200);
  });

  it('a duplicate racing a deletion for good answers 404, as in sequence', async () => {
    const image = await createImage(a.call, png(23, 23, 4));
    expect(
      (
        await a.call('PUT', `/assets/${image.id}/state`, {
          json: { request_key: key(), state: 'deleted' },
        })
      ).status,
    ).toBe(200);
    const held = holdNext(storeB.assets, 'revision');
    const duplicated = onB('POST', `/assets/${image.id}/duplicates`, {
      json: { request_key: key(), title: 'Dup of purged' },
    });
    await held.reached;
    expect(
      (await a.call('DELETE', `/assets/${image.id}`, { json: { request_key: key() } })).status,
    ).toBe(204);
    held.release();
    const answer = await duplicated;
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found', detail: 'No such asset.' });
  });

  it('a duplicate held before its transaction while its source is deleted for good answers 404', async () => {
    // Uploaded as multipart: no blob holds the bytes, so the deletion deletes them.
    const form = new FormData();
    form.set('request_key', key());
    form.set('kind', 'image');
    form.set('title', 'Uploaded');
    form.set('file', new Blob([png(24, 24, 5)]), 'image.png');
    const image = (await a.call('POST', '/assets', { body: form })).body.asset;
    const trash = { request_key: key(), state: 'deleted' };
    expect((await a.call('PUT', `/assets/${image.id}/state`, { json: trash })).status).toBe(200);
    const duplicated = await heldWrite(
      () =>
        onB('POST', `/assets/${image.id}/duplicates`, {
          json: { request_key: key(), title: 'Late dup' },
        }),
      async () =>
        expect(
          (await a.call('DELETE', `/assets/${image.id}`, { json: { request_key: key() } })).status,
        ).toBe(204),
    );
    expect(duplicated.status).toBe(404);
  });
});
