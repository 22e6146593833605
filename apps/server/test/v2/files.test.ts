// GET /assets/{id}/files/{path}: headers, revisions, ranges; erasing a revision's content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, Call, TestServer } from './helpers.js';
import { clientOf, createProduction, key, png, startTestServer, uploadBlob } from './helpers.js';
import { revalidated } from '../platform/support/revalidate.js';

let s: TestServer;
let call: Call;
beforeAll(async () => {
  s = await startTestServer();
  call = clientOf(s);
});
/** Whether the byte store (a folder or a bucket) holds the content. */
const stored = (sha256: string) => s.store.bytes.has(sha256);
afterAll(() => s.close());

const paths = (a: Asset) => a.revision.files.map((f) => f.path);
const thousand = Buffer.from(Array.from({ length: 1000 }, (_, i) => 97 + (i % 26)));
const file = (a: Asset, path: string, query = '', headers: Record<string, string> = {}) =>
  call('GET', `/assets/${a.id}/files/${path}${query}`, { headers });

describe('reading files', () => {
  let prod: Asset;
  beforeAll(async () => {
    prod = await createProduction(call, {
      files: [
        { path: 'canvas/deep/er/notes.css', text: thousand.toString('latin1') },
        { path: 'canvas/empty.css', text: '' },
        {
          path: 'canvas/index.html',
          text: '<!doctype html><title>x</title><script>alert(1)</script>',
        },
      ],
    });
  });

  it('serves the bytes with type, length, quoted-sha256 ETag, nosniff, a sandbox and no-store', async () => {
    const res = await file(prod, 'canvas/deep/er/notes.css');
    const sha256 = prod.revision.files.find((f) => f.path === 'canvas/deep/er/notes.css')!.sha256;
    expect(res.status).toBe(200);
    expect(res.bytes.equals(thousand)).toBe(true);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'content-type': 'text/css; charset=utf-8',
      'content-length': '1000',
      etag: `"${sha256}"`,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      'cache-control': 'private, no-store',
    });
    expect(res.headers.get('content-disposition')).toBeNull();
    const html = await file(prod, 'canvas/index.html');
    expect(html.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );
    // If-None-Match as RFC 9110 reads it: a list, weak tags, `*`.
    for (const [sent, status] of [
      [`"${sha256}"`, 304],
      [`"other", "${sha256}"`, 304],
      [`W/"${sha256}"`, 304],
      ['*', 304],
      ['"other"', 200],
    ] as const) {
      const answer = await file(prod, 'canvas/deep/er/notes.css', '', { 'if-none-match': sent });
      expect([sent, answer.status]).toEqual([sent, status]);
    }
  });

  it('answers 304 to a matching If-None-Match whatever the request’s Cache-Control says', async () => {
    const url = `${s.url}/api/v2/assets/${prod.id}/files/canvas/deep/er/notes.css`;
    const { sha256 } = prod.revision.files.find((f) => f.path === 'canvas/deep/er/notes.css')!;
    const authorization = `Bearer ${s.token}`;
    expect(await revalidated(url, `"${sha256}"`, { authorization })).toEqual({
      noCache: 304,
      fetch: 304,
    });
    expect(await revalidated(url, '"other"', { authorization })).toEqual({
      noCache: 200,
      fetch: 200,
    });
  });

  it('takes raw or encoded slashes, and answers download=1 as an attachment', async () => {
    expect((await file(prod, 'canvas%2Fdeep%2Fer%2Fnotes.css')).bytes.equals(thousand)).toBe(true);
    const res = await file(prod, 'canvas/deep/er/notes.css', '?download=1');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="notes.css"; filename*=UTF-8''notes.css`,
    );
  });

  it('answers 404 for absent paths and revisions, 422 for a bad query', async () => {
    expect((await file(prod, 'canvas/none.css')).status).toBe(404);
    expect((await file(prod, 'canvas/deep')).status).toBe(404);
    expect((await file(prod, 'canvas/empty.css', '?revision=9')).status).toBe(404);
    expect((await file(prod, 'canvas/empty.css', '?download=yes')).status).toBe(422);
  });

  const ranges: Array<[string, number, string | null, [number, number] | null]> = [
    ['bytes=0-0', 206, 'bytes 0-0/1000', [0, 1]],
    ['bytes=0-999', 206, 'bytes 0-999/1000', [0, 1000]],
    ['bytes=10-19', 206, 'bytes 10-19/1000', [10, 20]],
    ['bytes=990-', 206, 'bytes 990-999/1000', [990, 1000]],
    ['bytes=-10', 206, 'bytes 990-999/1000', [990, 1000]],
    ['bytes=-2000', 206, 'bytes 0-999/1000', [0, 1000]],
    ['bytes=500-99999', 206, 'bytes 500-999/1000', [500, 1000]],
    ['bytes=999-999', 206, 'bytes 999-999/1000', [999, 1000]],
    ['bytes=1000-', 416, 'bytes */1000', null],
    ['bytes=1000-1001', 416, 'bytes */1000', null],
    ['bytes=-0', 416, 'bytes */1000', null],
    ['bytes=5-1', 200, null, [0, 1000]],
    ['bytes=0-1,5-6', 200, null, [0, 1000]],
    ['items=0-1', 200, null, [0, 1000]],
    ['bytes=abc', 200, null, [0, 1000]],
    ['bytes=-', 200, null, [0, 1000]],
  ];
  for (const [range, status, contentRange, slice] of ranges) {
    it(`Range: ${range} → ${status}`, async () => {
      const res = await file(prod, 'canvas/deep/er/notes.css', '', { range });
      expect(res.status).toBe(status);
      expect(res.headers.get('content-range')).toBe(contentRange);
      if (slice) {
        expect(res.bytes.equals(thousand.subarray(...slice))).toBe(true);
        expect(res.headers.get('content-length')).toBe(String(slice[1] - slice[0]));
      } else {
        expect(res.body).toMatchObject({ status: 416, code: 'range_not_satisfiable' });
      }
    });
  }

  it('honours If-Range, and an empty file has no satisfiable range', async () => {
    const etag = prod.revision.files.find((f) => f.path === 'canvas/deep/er/notes.css')!.sha256;
    const same = await file(prod, 'canvas/deep/er/notes.css', '', {
      range: 'bytes=0-1',
      'if-range': `"${etag}"`,
    });
    const changed = await file(prod, 'canvas/deep/er/notes.css', '', {
      range: 'bytes=0-1',
      'if-range': '"x"',
    });
    expect([same.status, changed.status, changed.bytes.length]).toEqual([206, 200, 1000]);
    const empty = await file(prod, 'canvas/empty.css');
    expect([empty.status, empty.bytes.length]).toEqual([200, 0]);
    expect((await file(prod, 'canvas/empty.css', '', { range: 'bytes=0-' })).status).toBe(416);
    expect((await file(prod, 'canvas/empty.css', '', { range: 'bytes=-1' })).status).toBe(416);
  });
});

describe('DELETE /assets/{id}/revisions/{n}/content', () => {
  const erase = (a: Asset, n: number, reason?: string) =>
    call('DELETE', `/assets/${a.id}/revisions/${n}/content`, {
      json: { request_key: key(), ...(reason ? { reason } : {}) },
    });

  it('erases one revision: its files answer 410, bytes go unless another revision uses them', async () => {
    const prod = await createProduction(call, {
      files: [
        { path: 'canvas/only-in-1.css', text: 'first only' },
        { path: 'canvas/shared.css', text: 'in both revisions' },
      ],
    });
    const second = await call('POST', `/assets/${prod.id}/revisions`, {
      json: {
        request_key: key(),
        base_revision: 1,
        put: [{ path: 'canvas/only-in-2.css', text: 'second' }],
        remove: ['canvas/only-in-1.css'],
      },
    });
    expect(second.status).toBe(201);
    const sha = (a: Asset, path: string) => a.revision.files.find((f) => f.path === path)!.sha256;
    const only1 = sha(prod, 'canvas/only-in-1.css');
    const shared = sha(prod, 'canvas/shared.css');
    const only2 = sha(second.body.asset, 'canvas/only-in-2.css');
    expect(await Promise.all([only1, shared, only2].map(stored))).toEqual([true, true, true]);

    const res = await erase(prod, 1, 'licence withdrawn');
    expect(res.status).toBe(200);
    expect(res.body.asset.revision).toMatchObject({ number: 1, erased: true });
    expect(res.body.asset.revision.files.map((f) => f.path)).toContain('canvas/only-in-1.css');
    const gone = await file(prod, 'canvas/shared.css', '?revision=1');
    expect([gone.status, gone.body.code]).toEqual([410, 'content_erased']);
    expect((await file(prod, 'canvas/shared.css')).body).toBe('in both revisions');
    expect(await Promise.all([only1, shared, only2].map(stored))).toEqual([false, true, true]);

    expect((await erase(prod, 1)).status).toBe(200); // again: nothing more to do
    expect((await erase(prod, 3)).status).toBe(404);
    const listed = await call<{ revisions: Array<{ number: number; erased: boolean }> }>(
      'GET',
      `/assets/${prod.id}/revisions`,
    );
    expect(listed.body.revisions.map((r) => [r.number, r.erased])).toEqual([
      [2, false],
      [1, true],
    ]);

    expect((await erase(prod, 2)).status).toBe(200);
    expect(await Promise.all([shared, only2].map(stored))).toEqual([false, false]);
    expect((await file(prod, 'canvas/only-in-2.css')).status).toBe(410);
    const duplicate = await call('POST', `/assets/${prod.id}/duplicates`, {
      json: { request_key: key(), title: 'Copy' },
    });
    expect([duplicate.status, duplicate.body.code]).toEqual([410, 'content_erased']);
    const onErased = await call('POST', `/assets/${prod.id}/revisions`, {
      json: {
        request_key: key(),
        base_revision: 2,
        put: [{ path: 'canvas/new.css', text: 'n' }],
      },
    });
    expect([onErased.status, onErased.body.code]).toEqual([410, 'content_erased']);
    const production = {
      format: 1,
      title: 'Anew',
      medium: { id: 'banner', version: 1 },
      media_contract: { version: '1.0' },
    };
    const anew = await call('POST', `/assets/${prod.id}/revisions`, {
      json: {
        request_key: key(),
        base_revision: 2,
        put: [{ path: 'production.json', json: production }],
        remove: ['canvas/shared.css', 'canvas/only-in-2.css'],
      },
    });
    expect([anew.status, paths(anew.body.asset)]).toEqual([201, ['production.json']]);
  });

  it("keeps bytes another asset still uses, and takes the caller's own upload of them too", async () => {
    const image = png(4, 4, 0x11);
    const blob = await uploadBlob(call, image);
    const a = await createProduction(call, { files: [{ path: 'canvas/x.png', blob }] });
    const b = await createProduction(call, { files: [{ path: 'canvas/x.png', blob }] });
    expect((await erase(a, 1)).status).toBe(200);
    expect(await stored(blob)).toBe(true); // b uses it
    expect((await erase(b, 1)).status).toBe(200);
    expect(await stored(blob)).toBe(false);
    const reuse = await call('POST', '/assets', {
      json: { request_key: key(), kind: 'image', title: 'Again', files: [{ path: 'x.png', blob }] },
    });
    expect([reuse.status, reuse.body.errors]).toEqual([
      422,
      { 'files.0.blob': [expect.any(String) as string] },
    ]);
  });
});
