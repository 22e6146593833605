// Bad input everywhere: a 4xx problem with a reason, never a 500, and nothing stored.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedByteNames } from '../../../../packages/store/test/stores.js';
import type { Call, TestServer } from './helpers.js';
import { clientOf, createImage, key, png, startTestServer, uploadBlob } from './helpers.js';
import { cutOffUpload } from '../platform/harness.js';

let s: TestServer;
let call: Call;
beforeAll(async () => {
  s = await startTestServer();
  call = clientOf(s);
  await call('GET', '/assets'); // the service fonts are stored before the first snapshot
});
afterAll(() => s.close());

const MiB = 1024 * 1024;

/** Every stored content and upload (temporary ones included) and every asset row. */
async function stored(): Promise<string[]> {
  const rows = await s.store.db.selectFrom('assets').select('id').execute();
  return [...(await storedByteNames(s.store)), ...rows.map((r) => r.id)].sort();
}

/** Runs `send`, expects a problem with `status` (and `field` among `errors`), nothing stored. */
async function refused(
  status: number,
  send: () => Promise<{ status: number; headers: Headers; body: unknown }>,
  field?: string,
) {
  const before = await stored();
  const res = await send();
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = res.body as { errors?: Record<string, string[]>; detail: string };
  expect(body.detail).toEqual(expect.any(String));
  if (field) expect(Object.keys(body.errors ?? {})).toContain(field);
  // Bytes a refused write stored go as its answer goes out (a release after the refusal): with
  // bytes in a bucket that takes a few requests more, so it is looked at until then.
  await expect.poll(stored, { timeout: 10_000 }).toEqual(before);
  return body;
}

/** A PNG whose header claims 20,000 × 20,000 pixels (beyond the bounds of decisions §4). */
function hugePngHeader(): Buffer {
  const image = png(1, 1);
  image.writeUInt32BE(20_000, 16);
  image.writeUInt32BE(20_000, 20);
  return image;
}

describe('POST /assets with bad JSON bodies', () => {
  const create = (body: Record<string, unknown>) =>
    call('POST', '/assets', { json: { request_key: key(), kind: 'image', title: 'Bad', ...body } });
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an unknown kind', { kind: 'video', files: [{ path: 'a.png', text: 'x' }] }, 'kind'],
    [
      'two shapes in one file spec',
      { files: [{ path: 'a.png', text: 'x', blob: 'a'.repeat(64) }] },
      'files.0',
    ],
    ['no shape in a file spec', { files: [{ path: 'a.png' }] }, 'files.0'],
    [
      'a schema without json',
      { kind: 'data', files: [{ path: 'a.json', text: '{}', schema: 'svc://schemas/copy/1' }] },
      'files.0.schema',
    ],
    [
      'a blob that does not exist',
      { files: [{ path: 'a.png', blob: 'f'.repeat(64) }] },
      'files.0.blob',
    ],
    [
      'a blob that is not a sha256',
      { files: [{ path: 'a.png', blob: 'F'.repeat(64) }] },
      'files.0.blob',
    ],
    [
      'a schema URI that does not exist',
      { kind: 'data', files: [{ path: 'a.json', json: {}, schema: 'svc://schemas/nope/1' }] },
      'files.0',
    ],
    [
      'a schema URI of another form',
      { kind: 'data', files: [{ path: 'a.json', json: {}, schema: 'https://x/schema' }] },
      'files.0.schema',
    ],
    [
      'JSON failing its schema',
      {
        kind: 'data',
        files: [{ path: 'a.json', json: { colors: [] }, schema: 'svc://schemas/palette/1' }],
      },
      'files.0',
    ],
    ['data without a schema', { kind: 'data', files: [{ path: 'a.json', json: {} }] }, 'files.0'],
    [
      'a path with ..',
      { kind: 'data', files: [{ path: 'x/../a.json', json: {}, schema: 'svc://schemas/copy/1' }] },
      'files.0',
    ],
    [
      'an absolute path',
      { files: [{ path: '/a.svg', text: '<svg xmlns="http://www.w3.org/2000/svg"/>' }] },
      'files.0',
    ],
    [
      'a backslash path',
      { files: [{ path: 'a\\b.svg', text: '<svg xmlns="http://www.w3.org/2000/svg"/>' }] },
      'files.0',
    ],
    [
      'upper case in a path',
      { files: [{ path: 'A.svg', text: '<svg xmlns="http://www.w3.org/2000/svg"/>' }] },
      'files.0',
    ],
    [
      'text that is not the image its name says',
      { files: [{ path: 'a.png', text: 'not a png' }] },
      'files.0',
    ],
    [
      'an active SVG',
      {
        files: [
          { path: 'a.svg', text: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' },
        ],
      },
      'files.0',
    ],
    [
      'an SVG whose XLink href has another prefix than xlink:',
      {
        files: [
          {
            path: 'x.svg',
            text:
              '<svg xmlns="http://www.w3.org/2000/svg" xmlns:q="http://www.w3.org/1999/xlink" width="10" height="10">' +
              '<a q:href="javascript:alert(1)"><rect width="5" height="5"/></a>' +
              '<image q:href="https://evil.example/t.png" width="5" height="5"/></svg>',
          },
        ],
      },
      'files.0',
    ],
    [
      'two files in an image',
      {
        files: [
          { path: 'a.svg', text: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
          { path: 'b.svg', text: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
        ],
      },
      'files',
    ],
    [
      'a font that is an image',
      {
        kind: 'font',
        files: [{ path: 'a.svg', text: '<svg xmlns="http://www.w3.org/2000/svg"/>' }],
      },
      'files.0',
    ],
    [
      'an unknown medium',
      {
        kind: 'production',
        medium: { id: 'billboard', version: 1 },
        media_contract: { version: '1.0' },
      },
      'medium',
    ],
    [
      'another media contract',
      { kind: 'production', medium: { id: 'web', version: 1 }, media_contract: { version: '2.0' } },
      'media_contract.version',
    ],
    [
      'production.json among the files',
      {
        kind: 'production',
        medium: { id: 'web', version: 1 },
        media_contract: { version: '1.0' },
        files: [{ path: 'production.json', json: {} }],
      },
      'files.0.path',
    ],
    ['an unknown field', { colour: 'red', files: [{ path: 'a.png', text: 'x' }] }, 'colour'],
    ['an empty title', { title: ' ', files: [{ path: 'a.png', text: 'x' }] }, 'title'],
    ['no files', { files: [] }, 'files'],
  ];
  for (const [name, body, field] of cases) {
    it(`refuses ${name} with 422 on ${field}`, async () => {
      await refused(422, () => create(body), field);
    });
  }

  it('refuses an image whose header claims sizes beyond the bounds', async () => {
    const sha256 = await uploadBlob(call, hugePngHeader());
    const body = await refused(
      422,
      () => create({ files: [{ path: 'a.png', blob: sha256 }] }),
      'files.0',
    );
    expect(JSON.stringify(body)).toContain('formats.dimensions');
  });

  it('refuses request keys that are missing or not UUIDs', async () => {
    const files = [{ path: 'a.png', text: 'x' }];
    await refused(
      422,
      () => call('POST', '/assets', { json: { kind: 'image', title: 'x', files } }),
      'request_key',
    );
    await refused(422, () => create({ request_key: 'abc', files }), 'request_key');
  });

  it('answers 400 to bodies that are not JSON, 422 to JSON of the wrong type, 413 beyond 16 MiB', async () => {
    const post = (body: string) =>
      call('POST', '/assets', { body, headers: { 'content-type': 'application/json' } });
    for (const body of ['{', '', '[1']) await refused(400, () => post(body));
    for (const body of ['null', '"text"', '5']) await refused(422, () => post(body));
    await refused(400, () =>
      call('POST', '/assets', { body: '{}', headers: { 'content-type': 'text/plain' } }),
    );
    const big = 'x'.repeat(16 * MiB + 10);
    await refused(413, () =>
      create({
        kind: 'data',
        files: [{ path: 'a.json', json: big, schema: 'svc://schemas/copy/1' }],
      }),
    );
  });
});

describe('multipart uploads', () => {
  const form = (fields: Record<string, string>, file?: [Buffer, string]) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    if (file) f.set('file', new Blob([file[0]]), file[1]);
    return f;
  };
  const fields = () => ({ request_key: key(), kind: 'image', title: 'Up' });

  it('refuses a missing file, bad fields and content that is not an image, keeping no bytes', async () => {
    await refused(422, () => call('POST', '/assets', { body: form(fields()) }), 'file');
    await refused(
      422,
      () =>
        call('POST', '/assets', {
          body: form({ ...fields(), kind: 'data' }, [png(2, 2), 'a.png']),
        }),
      'kind',
    );
    await refused(
      422,
      () =>
        call('POST', '/assets', { body: form({ ...fields(), extra: '1' }, [png(2, 2), 'a.png']) }),
      'extra',
    );
    await refused(
      422,
      () => call('POST', '/assets', { body: form(fields(), [Buffer.from('plain text'), 'a.png']) }),
      'file',
    );
    await refused(
      422,
      () => call('POST', '/assets', { body: form(fields(), [png(2, 2, 7), 'a.exe']) }),
      'file',
    );
  });

  it('refuses fields named like inherited properties, and a field or file sent twice', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      await refused(
        422,
        () =>
          call('POST', '/assets', {
            body: form({ ...fields(), [name]: '1' }, [png(2, 2), 'a.png']),
          }),
        name,
      );
      const withFile = form(fields(), [png(2, 2), 'a.png']);
      withFile.set(name, new Blob([png(2, 2)]), 'b.png');
      await refused(422, () => call('POST', '/assets', { body: withFile }), name);
      await refused(422, () => call('GET', `/assets?${name}=1`), name);
      const json = `{"${name}": 1, "request_key": "${key()}", "kind": "data", "title": "t", "files": []}`;
      await refused(
        422,
        () =>
          call('POST', '/assets', { body: json, headers: { 'content-type': 'application/json' } }),
        name,
      );
    }
    const twice = form(fields(), [png(2, 2), 'a.png']);
    twice.append('title', 'Second');
    await refused(422, () => call('POST', '/assets', { body: twice }), 'title');
    const twoFiles = form(fields(), [png(2, 2), 'a.png']);
    twoFiles.append('file', new Blob([png(3, 3)]), 'b.png');
    await refused(422, () => call('POST', '/assets', { body: twoFiles }), 'file');
  });

  it('keeps no temporary file when the client goes mid-file, and answers the next request', async () => {
    const before = await stored();
    await cutOffUpload(s, '/api/v2/assets', { field: 'file', fields: fields() }, 200_000);
    // The server notices the closed connection on its own schedule: wait for it, boundedly.
    for (let tries = 0; tries < 50 && (await stored()).length !== before.length; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await stored()).toEqual(before);
    expect((await call('GET', '/assets')).status).toBe(200);
  });

  it('keeps bytes another asset already had when an upload of them is refused', async () => {
    const image = png(2, 2, 9);
    const asset = await createImage(call, image);
    await refused(
      422,
      () => call('POST', '/assets', { body: form({ ...fields(), title: '' }, [image, 'a.png']) }),
      'title',
    );
    expect((await call('GET', `/assets/${asset.id}/files/image.png`)).bytes.equals(image)).toBe(
      true,
    );
  });
});

/**
 * A raw request that streams `head` then up to `sendBytes` more bytes, and stops sending once
 * the server answers (a refusal may come long before the declared end).
 */
function rawUpload(
  path: string,
  headers: Record<string, string>,
  sendBytes: number,
  head = '',
): Promise<{ status: number; headers: Headers; body: unknown }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const url = new URL(`${s.url}/api/v2${path}`);
    const req = request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${s.token}`, ...headers } },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: new Headers(res.headers as Record<string, string>),
            body: text ? (JSON.parse(text) as unknown) : null,
          });
        });
      },
    );
    req.on('error', () => undefined); // the server may close the socket once it has answered
    req.write(head);
    const chunk = Buffer.alloc(MiB, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < sendBytes && !answered) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
    setTimeout(() => reject(new Error('no answer')), 60_000).unref();
  });
}

describe('POST /blobs limits', () => {
  it('cuts off a declared 2 GB upload at once: 413, nothing half-written', async () => {
    const body = await refused(413, () =>
      rawUpload(
        '/blobs',
        { 'content-length': String(2 * 1024 * MiB), 'content-type': 'application/octet-stream' },
        8 * MiB,
      ),
    );
    expect(body).toMatchObject({ code: 'body_too_large' });
  });

  it('cuts off an undeclared upload when it passes 256 MiB while streaming', async () => {
    await refused(413, () =>
      rawUpload(
        '/blobs',
        { 'transfer-encoding': 'chunked', 'content-type': 'application/octet-stream' },
        300 * MiB,
      ),
    );
  });

  it('cuts off a multipart upload declaring more than 256 MiB at once', async () => {
    const boundary = 'galleyboundary';
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.png"\r\n\r\n`;
    const type = `multipart/form-data; boundary=${boundary}`;
    const headers = { 'content-type': type, 'content-length': String(2 * 1024 * MiB) };
    const res = await refused(413, () => rawUpload('/assets', headers, 8 * MiB, head));
    expect(res).toMatchObject({ code: 'body_too_large' });
  });

  it('refuses a multipart file past 256 MiB counted while streaming, keeping nothing', async () => {
    const big = new Blob([new Uint8Array(256 * MiB + 1)]);
    const form = new FormData();
    for (const [k, v] of Object.entries({ request_key: key(), kind: 'image', title: 'Big' }))
      form.set(k, v);
    form.set('file', big, 'big.png');
    await refused(413, () => call('POST', '/assets', { body: form }));
  });

  it('accepts an empty blob and answers 200 for bytes the caller already holds', async () => {
    const first = await call('POST', '/blobs', {
      body: new Uint8Array(0),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect([first.status, first.body]).toEqual([
      201,
      { sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', size: 0 },
    ]);
    const again = await call('POST', '/blobs', { body: new Uint8Array(0) });
    expect(again.status).toBe(200);
  });
});
