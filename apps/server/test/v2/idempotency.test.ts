// request_key (decisions §6): replay, request_key_reused, request_in_progress, concurrency.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeStores } from '../../../../packages/store/test/stores.js';
import type { RequestKeyRecord, Store, StoreScope } from '@galley/store';
import { REQUEST_KEY_LEASE_SECONDS } from '@galley/store';
import { withShownRevision } from '../../src/assets/present.js';
import { stageSpecs } from '../../src/assets/service/file-specs.js';
import { Idempotency, canonicalJson, fingerprintOf } from '../../src/assets/service/run-once.js';
import type { Call, Reply, Served, TestServer } from './helpers.js';
import {
  clientOf,
  createImage,
  createProduction,
  key,
  png,
  serveStore,
  serveTwice,
  startTestServer,
  uploadBlob,
} from './helpers.js';
import { deferred, holdNext } from '../platform/hold.js';

/** A stored first answer's body with the revision it shows put back, as a resend is given it. */
async function wholeBody(store: StoreScope, record: Extract<RequestKeyRecord, { state: 'done' }>) {
  if (!record.shows) return record.answer.body;
  const { assetId, number } = record.shows;
  const files = await store.assets.files(assetId, number);
  const revision = await store.assets.revision(assetId, number);
  return withShownRevision(record.answer.body, { files, inspection: revision!.inspection });
}

const countAssets = async (call: Call) =>
  (await call<{ assets: unknown[] }>('GET', '/assets?per_page=200&kind=image,data,production')).body
    .assets.length;

const dataAsset = (request_key: string, title = 'Data') => ({
  request_key,
  kind: 'data',
  title,
  files: [
    {
      path: 'copy.json',
      json: { blocks: [{ id: 'h', text: 'Hi' }] },
      schema: 'svc://schemas/copy/1',
    },
  ],
});

describe('request_key', () => {
  let s: TestServer;
  let call: Call;
  beforeAll(async () => {
    s = await startTestServer();
    call = clientOf(s);
  });
  afterAll(() => s.close());

  it('replays the first answer to a resend, status, Location and body, registering once', async () => {
    const k = key();
    const first = await call('POST', '/assets', { json: dataAsset(k) });
    s.clock.advanceSeconds(30);
    const again = await call('POST', '/assets', { json: dataAsset(k) });
    expect(first.status).toBe(201);
    expect([again.status, again.headers.get('location')]).toEqual([
      201,
      first.headers.get('location'),
    ]);
    expect(again.body).toEqual(first.body);
    // A UUID is the same in capitals (RFC 9562).
    const shouted = await call('POST', '/assets', { json: dataAsset(k.toUpperCase()) });
    expect([shouted.status, shouted.body]).toEqual([201, first.body]);
    expect(await countAssets(call)).toBe(1);
  });

  it('answers 409 request_key_reused to the same key with another body or path', async () => {
    const k = key();
    expect((await call('POST', '/assets', { json: dataAsset(k) })).status).toBe(201);
    const other = await call('POST', '/assets', { json: dataAsset(k, 'Another title') });
    expect([other.status, other.body.code]).toEqual([409, 'request_key_reused']);
    const elsewhere = await call('PATCH', `/assets/ast_svc_inter_400`, {
      json: { request_key: k, title: 'x' },
    });
    expect(elsewhere.status).toBe(403); // refusals before the key (404/403) come first
    const prod = await createProduction(call);
    const path = await call('PATCH', `/assets/${prod.id}`, {
      json: { request_key: k, title: 'Data' },
    });
    expect([path.status, path.body.code]).toEqual([409, 'request_key_reused']);
  });

  it('replays a refusal too, and keys belong to one account', async () => {
    const k = key();
    const bad = {
      ...dataAsset(k),
      files: [{ path: 'copy.json', json: { blocks: [] }, schema: 'svc://schemas/copy/1' }],
    };
    const first = await call('POST', '/assets', { json: bad });
    expect(first.status).toBe(422);
    expect(await call('POST', '/assets', { json: bad })).toMatchObject({
      status: 422,
      body: first.body,
    });
    expect((await call('POST', '/assets', { json: dataAsset(k) })).body.code).toBe(
      'request_key_reused',
    );
    const other = clientOf(s, (await s.addAccount('keys@example.org')).token);
    expect((await other('POST', '/assets', { json: dataAsset(k) })).status).toBe(201);
  });

  it('forgets keys after 7 days', async () => {
    const k = key();
    expect((await call('POST', '/assets', { json: dataAsset(k) })).status).toBe(201);
    s.clock.advanceSeconds(7 * 86_400 - 1);
    expect((await call('POST', '/assets', { json: dataAsset(k, 'New') })).status).toBe(409);
    s.clock.advanceSeconds(1);
    const reused = await call('POST', '/assets', { json: dataAsset(k, 'New') });
    expect([reused.status, reused.body.asset.title]).toEqual([201, 'New']);
  });

  it('answers 409 request_in_progress while the first request runs, in any process', async () => {
    const second = await serveStore(s.store, s.clock);
    const secondAsAda = clientOf({ url: second.url }, s.token);
    try {
      const prod = await createProduction(call);
      // Many distinct files: each is stored and fsynced, so the request runs for a while.
      const put = Array.from({ length: 1500 }, (_, i) => ({
        path: `canvas/f${i}.css`,
        text: `.c${i}{}`,
      }));
      const body = { request_key: key(), base_revision: 1, put };
      const slow = call('POST', `/assets/${prod.id}/revisions`, { json: body });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [elsewhere, here] = await Promise.all([
        secondAsAda('POST', `/assets/${prod.id}/revisions`, { json: body }),
        call('POST', `/assets/${prod.id}/revisions`, { json: body }),
      ]);
      const first = await slow;
      expect(first.status).toBe(201);
      expect([elsewhere.status, elsewhere.body.code]).toEqual([409, 'request_in_progress']);
      expect([here.status, here.body.code]).toEqual([409, 'request_in_progress']); // here too
      const after = await secondAsAda('POST', `/assets/${prod.id}/revisions`, { json: body });
      expect(after).toMatchObject({ status: 201, body: first.body });
    } finally {
      await second.close();
    }
  });
});

/** `[[[…0…]]]`, `depth` arrays deep. */
function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys at every level, drops undefined members and writes undefined items as null', () => {
    expect(
      canonicalJson({ b: [1, { d: 'x', c: null, e: undefined }, undefined], a: true, é: 'é' }),
    ).toBe('{"a":true,"b":[1,{"c":null,"d":"x"},null],"é":"é"}');
    expect([
      canonicalJson([]),
      canonicalJson({}),
      canonicalJson('a"b'),
      canonicalJson(null),
    ]).toEqual(['[]', '{}', '"a\\"b"', 'null']);
    expect(canonicalJson({ z: { y: [{ b: 2, a: 1 }] } })).toBe('{"z":{"y":[{"a":1,"b":2}]}}');
  });

  it('gives equal text for equal values whatever the key order', () => {
    expect(canonicalJson({ a: { x: 1, y: [2, 3] }, b: 0 })).toBe(
      canonicalJson({ b: 0, a: { y: [2, 3], x: 1 } }),
    );
  });

  it('writes any nesting depth and width without overflowing the stack', () => {
    for (const depth of [5_000, 200_000]) {
      expect(canonicalJson(nested(depth))).toBe(`${'['.repeat(depth)}0${']'.repeat(depth)}`);
    }
    let deepObject: unknown = null;
    for (let i = 0; i < 100_000; i++) deepObject = { k: deepObject };
    expect(canonicalJson(deepObject)).toBe(`${'{"k":'.repeat(100_000)}null${'}'.repeat(100_000)}`);
    const wide = Array.from({ length: 1_000_000 }, () => 0);
    expect(canonicalJson(wide)).toBe(JSON.stringify(wide));
  });
});

describe('deeply nested JSON bodies', () => {
  let s: TestServer;
  let call: Call;
  beforeAll(async () => {
    s = await startTestServer();
    call = clientOf(s);
  });
  afterAll(() => s.close());

  const deepData = (depth: number) => ({
    request_key: key(),
    kind: 'data',
    title: 'Deep',
    files: [{ path: 'deep.json', json: { blocks: nested(depth) }, schema: 'svc://schemas/copy/1' }],
  });

  it('answers a file json nested 5,000 levels deep with 422, never 500, storing nothing', async () => {
    // Written by hand: JSON.stringify itself cannot nest this deep.
    const deep = `${'['.repeat(5_000)}0${']'.repeat(5_000)}`;
    const body = JSON.stringify(deepData(0)).replace('"blocks":0', `"blocks":${deep}`);
    expect(body).toContain(deep);
    const res = await call('POST', '/assets', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    expect(Object.keys(res.body.errors ?? {})).not.toHaveLength(0);
    expect(await countAssets(call)).toBe(0);
  });

  it('judges a nested value the body reader lets through by its schema, and replays the answer', async () => {
    const body = deepData(300);
    const first = await call('POST', '/assets', { json: body });
    expect([first.status, first.body.code, Object.keys(first.body.errors ?? {})]).toEqual([
      422,
      'invalid_files',
      ['files.0'],
    ]);
    expect(await call('POST', '/assets', { json: body })).toMatchObject({
      status: 422,
      body: first.body,
    });
  });

  it('refuses (422) a file json that JSON.stringify cannot write, instead of failing', async () => {
    const specs = [{ path: 'deep.json', json: nested(1_000_000) }];
    await expect(stageSpecs({} as Store, 1, specs, 'files')).rejects.toMatchObject({
      status: 422,
      extras: { errors: { 'files.0.json': ['nested too deeply or too large to store'] } },
    });
  });
});

describeStores('20 concurrent requests with one key', (t) => {
  let served: Served;
  beforeAll(async () => {
    served = await serveStore(t.store, t.clock);
  });
  afterAll(() => served.close());

  /**
   * Each answer is the first one (replayed once it finished) or 409 `request_in_progress` (sent
   * while it ran, decisions §6); the write happened once, and a resend now gets its answer.
   */
  async function onceAcross(send: () => ReturnType<typeof served.call>) {
    const answers = await Promise.all(Array.from({ length: 20 }, send));
    const done = answers.filter((a) => a.status === 201);
    const waiting = answers.filter((a) => a.status !== 201);
    expect(done.length).toBeGreaterThan(0);
    for (const answer of done) {
      expect(answer.body).toEqual(done[0]!.body);
      expect(answer.headers.get('location')).toBe(done[0]!.headers.get('location'));
    }
    for (const answer of waiting) {
      expect([answer.status, answer.body.code]).toEqual([409, 'request_in_progress']);
    }
    const resent = await send();
    expect([resent.status, resent.body]).toEqual([201, done[0]!.body]);
  }

  it('create one asset: one answer, or request_in_progress while it runs', async () => {
    const sha256 = await uploadBlob(served.call, png(300, 250));
    const body = {
      request_key: key(),
      kind: 'image',
      title: 'Once',
      files: [{ path: 'once.png', blob: sha256 }],
    };
    await onceAcross(() => served.call('POST', '/assets', { json: body }));
    expect(await countAssets(served.call)).toBe(1);
  });

  it('create one revision: one answer, or request_in_progress while it runs', async () => {
    const prod = await createProduction(served.call);
    const body = {
      request_key: key(),
      base_revision: 1,
      put: [{ path: 'canvas/a.css', text: 'a{}' }],
    };
    await onceAcross(() => served.call('POST', `/assets/${prod.id}/revisions`, { json: body }));
    const revisions = await served.call<{ revisions: unknown[] }>(
      'GET',
      `/assets/${prod.id}/revisions`,
    );
    expect(revisions.body.revisions).toHaveLength(2);
  });
});

describeStores('a request key whose first request died with its process', (t) => {
  let served: Awaited<ReturnType<typeof serveStore>>;
  beforeAll(async () => {
    served = await serveStore(t.store, t.clock);
  });
  afterAll(() => served.close());

  /**
   * Sends `body` and kills its request midway, as kill -9 would: the write fails before anything
   * is stored, and the claim is neither freed nor renewed any more (the clock stands still).
   */
  async function diesMidway(assetId: string, body: unknown) {
    const killed = vi.spyOn(t.store, 'transaction').mockRejectedValueOnce(new Error('killed'));
    const kept = vi.spyOn(t.store.requestKeys, 'abandon').mockResolvedValueOnce(undefined);
    try {
      const res = await served.call('POST', `/assets/${assetId}/revisions`, { json: body });
      expect(res.status).toBe(500);
      expect(killed).toHaveBeenCalled(); // then once more, to release the bytes it stored
      expect(kept).toHaveBeenCalledOnce();
    } finally {
      killed.mockRestore();
      kept.mockRestore();
    }
  }

  it('answers request_in_progress while its lease lasts, then runs the resend once', async () => {
    const prod = await createProduction(served.call);
    const body = {
      request_key: key(),
      base_revision: 1,
      put: [{ path: 'canvas/a.css', text: 'a{}' }],
    };
    await diesMidway(prod.id, body);
    const revise = () => served.call('POST', `/assets/${prod.id}/revisions`, { json: body });

    t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS - 1); // it might still run elsewhere
    const waiting = await revise();
    expect([waiting.status, waiting.body.code]).toEqual([409, 'request_in_progress']);

    t.clock.advanceSeconds(1); // the lease has ended: nothing runs it any more
    const [one, two] = await Promise.all([revise(), revise()]);
    // One takes the claim over and runs; the other is a resend while it runs (or its replay).
    const retried = one.status === 201 ? one : two;
    const twin = retried === one ? two : one;
    expect(retried.status).toBe(201);
    expect(retried.body.asset.revision.number).toBe(2);
    if (twin.status === 201) expect(twin.body).toEqual(retried.body);
    else expect([twin.status, twin.body.code]).toEqual([409, 'request_in_progress']);

    t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS * 10);
    expect(await revise()).toMatchObject({ status: 201, body: retried.body });
    const other = await served.call('POST', `/assets/${prod.id}/revisions`, {
      json: { ...body, put: [{ path: 'canvas/b.css', text: 'b{}' }] },
    });
    expect([other.status, other.body.code]).toEqual([409, 'request_key_reused']);
    const revisions = await served.call<{ revisions: unknown[] }>(
      'GET',
      `/assets/${prod.id}/revisions`,
    );
    expect(revisions.body.revisions).toHaveLength(2);
  });

  it('keeps the claim of a request that runs long, by renewing its lease', async () => {
    const created = await t.store.accounts.create({
      email: `${key()}@example.org`,
      name: 'Long',
      password: 'pw',
    });
    if (!created.ok) throw new Error('account');
    const { accountNumber } = created.account;
    const idempotency = new Idempotency(t.store, { renewEveryMs: 5 });
    const fingerprint = fingerprintOf('POST', '/api/v2/assets/a/revisions', { base_revision: 1 });
    const input = { accountNumber, key: key(), fingerprint };
    const renew = vi.spyOn(t.store.requestKeys, 'renew');
    const renewal = async () => {
      const before = renew.mock.calls.length;
      await vi.waitFor(() => expect(renew.mock.calls.length).toBeGreaterThan(before));
      await renew.mock.results.at(-1)!.value;
    };
    let meanwhile: unknown;
    let answer: unknown;
    try {
      answer = await idempotency.runOnce(input, async (claim) => {
        for (let i = 0; i < 4; i++) {
          t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS - 1);
          await renewal();
        }
        t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS - 1);
        meanwhile = await t.store.requestKeys.claim(input);
        return t.store.transaction(async (tx) => {
          await claim.hold(tx);
          return claim.answer(tx, { status: 201, body: { done: true } });
        });
      });
      const renewals = renew.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(renew.mock.calls.length).toBe(renewals); // stopped with the request
    } finally {
      renew.mockRestore();
    }
    expect(meanwhile).toEqual({ ok: false, record: { state: 'running', fingerprint } });
    expect(answer).toEqual({ status: 201, body: { done: true } });
    expect(await t.store.requestKeys.find(accountNumber, input.key)).toMatchObject({
      state: 'done',
      answer: { status: 201, body: { done: true } },
    });
  });
});

/**
 * Holds the request whose transaction makes `written` true right after that transaction has
 * committed, as if its process died there: nothing more of it runs until `release()`.
 * `reached` settles once it is held.
 */
function holdAfterCommit(store: Store, written: (scope: StoreScope) => Promise<boolean>) {
  const original = store.transaction.bind(store);
  const reached = deferred();
  const gate = deferred();
  store.transaction = (async (fn: (tx: StoreScope) => Promise<unknown>) => {
    let wrote = false;
    const result = await original(async (tx) => {
      const before = await written(tx);
      const value = await fn(tx);
      wrote = !before && (await written(tx));
      return value;
    });
    if (wrote) {
      store.transaction = original;
      reached.resolve();
      await gate.promise;
    }
    return result;
  }) as Store['transaction'];
  return {
    reached: reached.promise,
    release: () => {
      store.transaction = original;
      gate.resolve();
    },
  };
}

const titled = async (scope: StoreScope, title: string) =>
  (await scope.db.selectFrom('assets').select('id').where('title', '=', title).execute()).length;

/** A write to send twice with one key, and how to tell from the database that it was made. */
interface WriteCase {
  key: string;
  status: number;
  send: (call: Call) => Promise<Reply>;
  /** True once the write is in the database (and, for a new asset, made once). */
  written: (scope: StoreScope) => Promise<boolean>;
}

describeStores('a write and its first answer, committed together', (t) => {
  let a: Served;
  /** The same account as `a.call`, on the other server (its own connection, as a process). */
  let onB: Call;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, onB, close } = await serveTwice(t));
  });
  afterAll(() => close());

  const sendJson = (method: string, path: string, json: { request_key: string }) => (call: Call) =>
    call(method, path, { json });
  const newAsset = (title: string) => async (scope: StoreScope) =>
    (await titled(scope, title)) === 1;
  const atRevision = (id: string, number: number) => async (scope: StoreScope) =>
    (await scope.assets.find(id))?.currentRevision === number;

  const cases: Record<string, () => Promise<WriteCase>> = {
    'POST /assets (JSON)': () => {
      const json = dataAsset(key(), `json-${key()}`);
      return Promise.resolve({
        key: json.request_key,
        status: 201,
        send: sendJson('POST', '/assets', json),
        written: newAsset(json.title),
      });
    },
    'POST /assets (multipart)': () => {
      const [k, title] = [key(), `multipart-${key()}`];
      const send = (call: Call) => {
        const form = new FormData();
        form.set('request_key', k);
        form.set('kind', 'image');
        form.set('title', title);
        form.set('file', new Blob([png(40, 30)]), 'photo.png');
        return call('POST', '/assets', { body: form });
      };
      return Promise.resolve({ key: k, status: 201, send, written: newAsset(title) });
    },
    'POST /assets/{id}/revisions': async () => {
      const prod = await createProduction(a.call);
      const json = {
        request_key: key(),
        base_revision: 1,
        put: [{ path: 'canvas/a.css', text: 'a{}' }],
      };
      const path = `/assets/${prod.id}/revisions`;
      return {
        key: json.request_key,
        status: 201,
        send: sendJson('POST', path, json),
        written: atRevision(prod.id, 2),
      };
    },
    'POST /assets/{id}/duplicates': async () => {
      const image = await createImage(a.call, png(20, 20));
      const json = { request_key: key(), title: `duplicate-${key()}` };
      const path = `/assets/${image.id}/duplicates`;
      return {
        key: json.request_key,
        status: 201,
        send: sendJson('POST', path, json),
        written: newAsset(json.title),
      };
    },
    'POST /assets/{id}/copies': async () => {
      const [image, prod] = [
        await createImage(a.call, png(20, 20)),
        await createProduction(a.call),
      ];
      const json = {
        request_key: key(),
        base_revision: 1,
        source: { asset: image.id },
        to: 'references/logo/',
      };
      const path = `/assets/${prod.id}/copies`;
      return {
        key: json.request_key,
        status: 201,
        send: sendJson('POST', path, json),
        written: atRevision(prod.id, 2),
      };
    },
    'PATCH /assets/{id}': async () => {
      const image = await createImage(a.call, png(20, 20));
      const json = { request_key: key(), title: `renamed-${key()}` };
      return {
        key: json.request_key,
        status: 200,
        send: sendJson('PATCH', `/assets/${image.id}`, json),
        written: newAsset(json.title),
      };
    },
    'PUT /assets/{id}/state': async () => {
      const image = await createImage(a.call, png(20, 20));
      const json = { request_key: key(), state: 'archived' };
      const written = async (scope: StoreScope) =>
        (await scope.assets.find(image.id))?.state === 'archived';
      return {
        key: json.request_key,
        status: 200,
        send: sendJson('PUT', `/assets/${image.id}/state`, json),
        written,
      };
    },
    'DELETE /assets/{id}/revisions/{n}/content': async () => {
      const image = await createImage(a.call, png(20, 20));
      const json = { request_key: key() };
      const written = async (scope: StoreScope) =>
        (await scope.assets.revision(image.id, 1))?.erasedAt !== null;
      const path = `/assets/${image.id}/revisions/1/content`;
      return { key: json.request_key, status: 200, send: sendJson('DELETE', path, json), written };
    },
    'DELETE /assets/{id}': async () => {
      const image = await createImage(a.call, png(20, 20));
      const trashed = await a.call('PUT', `/assets/${image.id}/state`, {
        json: { request_key: key(), state: 'deleted' },
      });
      expect(trashed.status).toBe(200);
      const json = { request_key: key() };
      const written = async (scope: StoreScope) => (await scope.assets.find(image.id)) === null;
      return {
        key: json.request_key,
        status: 204,
        send: sendJson('DELETE', `/assets/${image.id}`, json),
        written,
      };
    },
  };

  it.each(Object.keys(cases))(
    '%s: the answer is stored by the commit itself; a resend once the lease is over replays it',
    async (name) => {
      const write = await cases[name]!();
      const held = holdAfterCommit(t.store, write.written);
      const first = write.send(a.call);
      let resent: Reply;
      try {
        const heldFirst = await Promise.race([
          held.reached.then(() => true),
          first.then(() => false),
        ]);
        expect(heldFirst).toBe(true); // the write committed in a transaction of the store
        // The process "dies" here: its answer must already be there, with the write.
        const record = await t.store.requestKeys.find(a.accountNumber, write.key);
        if (record?.state !== 'done') throw new Error(`the key is ${JSON.stringify(record)}`);
        expect(record.answer.status).toBe(write.status);
        t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS); // a claim without answer is free now
        resent = await write.send(onB);
        expect(resent.status).toBe(write.status);
        if (write.status !== 204) expect(resent.body).toEqual(await wholeBody(t.store, record));
        expect(resent.headers.get('location')).toBe(record.answer.headers.Location ?? null);
        expect(await write.written(t.store)).toBe(true); // and made once
      } finally {
        held.release();
      }
      const answered = await first;
      expect([answered.status, answered.body]).toEqual([resent.status, resent.body]);
    },
  );

  it('commits nothing for a request that outlived its claim, and answers it 409', async () => {
    const json = dataAsset(key(), `late-${key()}`);
    const send = (call: Call) => call('POST', '/assets', { json });
    // The first request holds the claim and is about to store its bytes, then commit.
    const held = holdNext(t.store.bytes, 'put');
    const late = send(a.call);
    await held.reached;
    t.clock.advanceSeconds(REQUEST_KEY_LEASE_SECONDS); // as if it had stopped renewing
    const resent = await send(onB); // takes the claim over and runs the write
    expect(resent.status).toBe(201);
    held.release();
    const answered = await late;
    expect([answered.status, answered.body.code]).toEqual([409, 'request_in_progress']);
    expect(await titled(t.store, json.title)).toBe(1);
    const record = await t.store.requestKeys.find(a.accountNumber, json.request_key);
    if (record?.state !== 'done') throw new Error(`the key is ${JSON.stringify(record)}`);
    expect(record.answer.status).toBe(201);
    expect(await wholeBody(t.store, record)).toEqual(resent.body);
    expect(await send(a.call)).toMatchObject({ status: 201, body: resent.body });
  });
});
