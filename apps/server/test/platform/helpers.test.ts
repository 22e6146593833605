// The helpers routers are built from, exercised over real HTTP on a small app of test routes.
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import pino from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { route } from '@galley/core';
import { DiskByteStore, sha256Hex } from '@galley/store';
import {
  ApiRegistry,
  ApiRouter,
  editorClientOf,
  putRequestBody,
  readMultipart,
  streamMultipart,
} from '@galley/server';
import { errorHandler, notFound } from '../../src/http/errors.js';
import { MAX_LISTED_FIELDS } from '../../src/http/parse.js';

let url: string;
let server: Server;
let dir: string;
let bytes: DiskByteStore;
const logged: unknown[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'galley-helpers-'));
  bytes = new DiskByteStore(join(dir, 'bytes'));
  await bytes.init();
  const registry = new ApiRegistry({ title: 'test', version: '0' }, 'http://localhost/api/t');
  const routes = {
    echo: route({
      method: 'post',
      path: '/things/{id}',
      summary: 'echo',
      params: z.object({ id: z.string().regex(/^thg_[a-z0-9]+$/) }),
      query: z.strictObject({ per_page: z.coerce.number().int().min(1).max(200).default(50) }),
      body: z.strictObject({ title: z.string().min(1), tags: z.array(z.string()).optional() }),
      responses: { 200: { description: 'echo' } },
    }),
    write: route({
      method: 'put',
      path: '/write',
      summary: 'editor client',
      editorClient: true,
      responses: { 200: { description: 'ok' } },
    }),
  };
  const api = new ApiRouter({ routes, registry, jsonLimitBytes: 4096 });
  api.handle('echo', async ({ res, params, query, body }) => {
    const q = query();
    res.json({ id: params.id, per_page: q.per_page, body: await body() });
  });
  api.handle('write', ({ req, res }) => {
    res.json({ client: editorClientOf(req) });
  });
  const logger = pino(
    { level: 'error' },
    { write: (line: string) => void logged.push(JSON.parse(line)) },
  );
  const app = express();
  app.use((req, _res, next) => {
    req.id = 'test-request';
    // As the service's own authentication does, let the request's bytes come in before routing.
    setImmediate(next);
  });
  app.use('/api/t', api.router);
  app.post('/upload', async (req, res) => {
    const { file, fields } = await readMultipart(req, { fileField: 'zip', maxFileBytes: 1000 });
    res.json({ size: file?.bytes.byteLength ?? null, filename: file?.filename ?? null, fields });
  });
  app.post('/gather', async (req, res) => {
    const { file } = await readMultipart(req, { fileField: 'zip', maxFileBytes: 1 << 20 });
    res.json({ sha256: file && sha256Hex(file.bytes) });
  });
  app.post('/stream', async (req, res) => {
    const { file, fields } = await streamMultipart(
      req,
      { fileField: 'file', maxFileBytes: 1000 },
      (chunks) => bytes.put(chunks),
    );
    res.json({ result: file?.result ?? null, fields });
  });
  app.post('/blobs', async (req, res) => {
    res.status(201).json(await putRequestBody(req, bytes, { maxBytes: 1000 }));
  });
  app.get('/boom', () => {
    throw new Error('secret internals');
  });
  app.get('/unstorable', () => {
    // What pg raises for U+0000 in a parameter, wrapped as a service may rethrow it.
    const refused = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
    });
    throw new Error('the write failed', { cause: refused });
  });
  app.use(notFound());
  app.use(errorHandler(logger));
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

const json = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('ApiRouter and parse helpers', () => {
  it('passes validated params, query and body to the handler', async () => {
    const res = await fetch(
      `${url}/api/t/things/thg_1?per_page=7`,
      json({ title: 'T', tags: ['a'] }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: 'thg_1',
      per_page: 7,
      body: { title: 'T', tags: ['a'] },
    });
  });

  it('answers 404 for params that fail their schema', async () => {
    const res = await fetch(`${url}/api/t/things/nope`, json({ title: 'T' }));
    expect(res.status).toBe(404);
  });

  it('answers 422 with errors by field path, unknown fields one by one', async () => {
    const res = await fetch(
      `${url}/api/t/things/thg_1`,
      json({ title: '', tags: [1], extra: 1, more: 2 }),
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; errors: Record<string, string[]> };
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.errors).sort()).toEqual(['extra', 'more', 'tags.0', 'title']);
    expect(body.errors.extra).toEqual(['unknown field']);
  });

  it('lists 100 fields at most in a 422, counting the others in detail', async () => {
    const extra = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, 0]));
    const res = await fetch(`${url}/api/t/things/thg_1`, json({ title: '', ...extra }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: string; errors: Record<string, string[]> };
    const listed = Object.keys(body.errors);
    expect(listed).toHaveLength(MAX_LISTED_FIELDS);
    expect(listed.slice(0, 3)).toEqual(['title', 'k0', 'k1']);
    expect(body.detail).toBe(`Invalid fields: ${listed.join(', ')} and 151 more.`);
  });

  it('answers 422 for a bad query value', async () => {
    const res = await fetch(`${url}/api/t/things/thg_1?per_page=500`, json({ title: 'T' }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      errors: { per_page: [expect.any(String) as string] },
    });
  });

  it('reads JSON in UTF-8 only: another declared charset is 415', async () => {
    const body = JSON.stringify({ title: 'T' });
    const send = (contentType: string) =>
      fetch(`${url}/api/t/things/thg_1`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
    for (const ok of ['application/json; charset=UTF-8', 'application/json;charset="utf-8"']) {
      expect((await send(ok)).status).toBe(200);
    }
    for (const charset of ['utf-16', 'UTF-32', 'latin1', 'utf8']) {
      const res = await send(`application/json; charset=${charset}`);
      expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([
        415,
        'unsupported_media_type',
      ]);
    }
  });

  it('answers 413 past the JSON limit', async () => {
    const res = await fetch(`${url}/api/t/things/thg_1`, json({ title: 'x'.repeat(5000) }));
    expect(res.status).toBe(413);
  });
});

describe('editorClientOf', () => {
  it('accepts letters, digits and . _ : - up to 64 characters', async () => {
    for (const client of [
      'a',
      '0f8e3c1a-7c2b-4b6e-9f0e-2b1c3d4e5f60',
      'agent.v1:run_2',
      'x'.repeat(64),
    ]) {
      const res = await fetch(`${url}/api/t/write`, {
        method: 'PUT',
        headers: { 'x-editor-client': client },
      });
      expect(await res.json()).toEqual({ client });
    }
  });

  it('answers 400 invalid_editor_client when missing or invalid', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-editor-client': 'x'.repeat(65) },
      { 'x-editor-client': 'has space' },
      { 'x-editor-client': 'é' },
    ];
    for (const headers of cases) {
      const res = await fetch(`${url}/api/t/write`, { method: 'PUT', headers });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_editor_client' });
    }
  });
});

const form = (size: number, field = 'zip') => {
  const data = new FormData();
  data.set('title', 'Hello');
  data.set(field, new Blob([new Uint8Array(size).fill(7)]), 'site.zip');
  return data;
};

describe('multipart', () => {
  it('yields the named file and the text fields', async () => {
    const res = await fetch(`${url}/upload`, { method: 'POST', body: form(1000) });
    expect(await res.json()).toEqual({
      size: 1000,
      filename: 'site.zip',
      fields: { title: 'Hello' },
    });
  });

  it('gathers a file alike whether the body declares its length or comes in chunks', async () => {
    const file = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251);
    const data = new FormData();
    data.set('zip', new Blob([file]), 'site.zip');
    const declared = new Request(`${url}/gather`, { method: 'POST', body: data });
    const bytes = new Uint8Array(await declared.arrayBuffer());
    const type = declared.headers.get('content-type')!;
    // Without a length the buffer starts small and grows as the pieces arrive.
    const pieces = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 10_000)
          controller.enqueue(bytes.subarray(at, at + 10_000));
        controller.close();
      },
    });
    for (const body of [bytes, pieces]) {
      const res = await fetch(`${url}/gather`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
        duplex: 'half',
      });
      expect(await res.json()).toEqual({ sha256: sha256Hex(file) });
    }
  });

  it('answers 413 one byte past the limit', async () => {
    const res = await fetch(`${url}/upload`, { method: 'POST', body: form(1001) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'body_too_large' });
  });

  it('answers 422 for an unexpected file field and 400 for a body that is not multipart', async () => {
    const other = await fetch(`${url}/upload`, { method: 'POST', body: form(10, 'other') });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ errors: { other: ['unexpected file'] } });
    const plain = await fetch(`${url}/upload`, json({ a: 1 }));
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ code: 'invalid_multipart' });
    const broken = await fetch(`${url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated',
    });
    expect(broken.status).toBe(400);
  });

  it('answers 422 for text where the file belongs, and for text that is not UTF-8', async () => {
    const asText = new FormData();
    asText.set('zip', 'PK\u0003\u0004 not a file part');
    const text = await fetch(`${url}/upload`, { method: 'POST', body: asText });
    expect(text.status).toBe(422);
    expect(await text.json()).toMatchObject({
      errors: { zip: ['must be a file part, not text'] },
    });
    const latin1 = Buffer.concat([
      Buffer.from('--b\r\nContent-Disposition: form-data; name="title"\r\n\r\ncaf'),
      Buffer.from([0xe9]), // é in Latin-1: not UTF-8
      Buffer.from('\r\n--b--\r\n'),
    ]);
    const notUtf8 = await fetch(`${url}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: latin1,
    });
    expect(notUtf8.status).toBe(422);
    const body = (await notUtf8.json()) as { errors: Record<string, string[]> };
    expect(body.errors.title).toEqual([expect.stringMatching(/^must be UTF-8 text/) as string]);
  });

  it('streams into the byte store and keeps nothing past the limit', async () => {
    const ok = await fetch(`${url}/stream`, { method: 'POST', body: form(900, 'file') });
    expect(await ok.json()).toMatchObject({
      result: { ok: true, size: 900, created: true },
      fields: { title: 'Hello' },
    });
    const before = await readdir(join(dir, 'bytes'), { recursive: true });
    const big = await fetch(`${url}/stream`, { method: 'POST', body: form(5000, 'file') });
    expect(big.status).toBe(413);
    expect(await readdir(join(dir, 'bytes'), { recursive: true })).toEqual(before);
  });
});

describe('uploads with a Content-Encoding', () => {
  it('are 415: the coded bytes are never stored as the content', async () => {
    for (const path of ['/blobs', '/upload']) {
      const body = path === '/blobs' ? new Uint8Array([31, 139, 8, 0]) : form(10);
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-encoding': 'gzip' },
        body,
      });
      expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([
        415,
        'unsupported_media_type',
      ]);
    }
    const plain = await fetch(`${url}/blobs`, {
      method: 'POST',
      headers: { 'content-encoding': 'identity' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(plain.status).toBe(201);
  });
});

describe('multipart cut short', () => {
  /** Sends a multipart head and `fileBytes` of a file part over a raw socket, then half-closes. */
  async function rawUpload(fileBytes: number): Promise<string> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const head = [
      '--b',
      'Content-Disposition: form-data; name="zip"; filename="a.zip"',
      'Content-Type: application/zip',
      '',
      '',
    ].join('\r\n');
    socket.write(
      [
        'POST /upload HTTP/1.1',
        `Host: ${hostname}`,
        'Content-Type: multipart/form-data; boundary=b',
        `Content-Length: ${head.length + 10_000_000}`,
        '',
        head,
      ].join('\r\n'),
    );
    socket.write(new Uint8Array(fileBytes).fill(7));
    socket.end(); // the body stops long before its declared length
    let answer = '';
    socket.setEncoding('utf8');
    for await (const chunk of socket) answer += String(chunk);
    return answer;
  }

  it('answers 413 at the first byte past the limit, and a body cut short crashes nothing', async () => {
    expect(await rawUpload(5000)).toMatch(/^HTTP\/1\.1 413 /);
    await rawUpload(500); // ends inside the file part, under the limit
    const after = await fetch(`${url}/upload`, { method: 'POST', body: form(10) });
    expect(after.status).toBe(200);
  });
});

describe('JSON bodies, however their bytes arrive', () => {
  type Arrival = 'with the head' | 'after a pause' | 'chunked';

  /** POSTs `body` to the echo route over a raw socket; answers the status and parsed answer. */
  async function post(
    body: Uint8Array,
    contentType: string,
    arrival: Arrival,
  ): Promise<{ status: number; answer: { code?: string; body?: unknown } }> {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const length =
      arrival === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`;
    const head = Buffer.from(
      `POST /api/t/things/thg_1 HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n` +
        `Content-Type: ${contentType}\r\n${length}\r\n\r\n`,
    );
    if (arrival === 'with the head') {
      socket.write(Buffer.concat([head, body]));
    } else if (arrival === 'after a pause') {
      socket.write(head);
      await new Promise((resolve) => setTimeout(resolve, 30));
      socket.write(body);
    } else {
      socket.write(head);
      for (const piece of [body.subarray(0, 3), body.subarray(3)].filter((p) => p.length > 0)) {
        socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(Buffer.concat([piece, Buffer.from('\r\n')]));
      }
      socket.write('0\r\n\r\n');
    }
    let text = '';
    socket.setEncoding('utf8');
    for await (const chunk of socket) text += String(chunk);
    const [, status] = /^HTTP\/1\.1 (\d{3}) /.exec(text) ?? [];
    const answer = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as {
      code?: string;
      body?: unknown;
    };
    return { status: Number(status), answer };
  }

  const encode = (text: string) => new TextEncoder().encode(text);
  const bom = (bytes: Uint8Array) => new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
  const cases: Array<
    [name: string, body: Uint8Array, type: string, status: number, code?: string]
  > = [
    ['plain JSON', encode('{"title":"Café"}'), 'application/json', 200],
    ['a charset', encode('{"title":"Café"}'), 'application/json; charset=UTF-8', 200],
    ['a byte-order mark', bom(encode('{"title":"Café"}')), 'application/json', 200],
    ['only a byte-order mark', bom(new Uint8Array()), 'application/json', 422, 'validation_failed'],
    ['malformed JSON', encode('{"title":'), 'application/json', 400, 'malformed_json'],
    [
      'bytes that are not UTF-8',
      new Uint8Array([0x7b, 0xe9, 0x7d]),
      'application/json',
      400,
      'malformed_json',
    ],
    ['a JSON scalar', encode('"Café"'), 'application/json', 422, 'validation_failed'],
    [
      'another charset',
      encode('{"title":"T"}'),
      'application/json; charset=latin1',
      415,
      'unsupported_media_type',
    ],
  ];

  it('are read alike whole, in pieces, or after a pause', async () => {
    for (const [name, body, type, status, code] of cases) {
      for (const arrival of ['with the head', 'after a pause', 'chunked'] as const) {
        const { status: got, answer } = await post(body, type, arrival);
        expect([name, arrival, got, answer.code]).toEqual([name, arrival, status, code]);
        if (status === 200) expect(answer.body).toEqual({ title: 'Café' });
      }
    }
  });
});

describe('putRequestBody', () => {
  it('stores the raw body by its SHA-256', async () => {
    const res = await fetch(`${url}/blobs`, {
      method: 'POST',
      body: 'abc',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      size: 3,
      created: true,
    });
  });

  it('answers 413 for a declared or a streamed size over the limit, keeping nothing', async () => {
    const before = await readdir(join(dir, 'bytes'), { recursive: true });
    const declared = await fetch(`${url}/blobs`, { method: 'POST', body: new Uint8Array(1001) });
    expect(declared.status).toBe(413);
    const streamed = await fetch(`${url}/blobs`, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(400));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(streamed.status).toBe(413);
    expect(await readdir(join(dir, 'bytes'), { recursive: true })).toEqual(before);
  });
});

describe('text the database cannot hold', () => {
  it('is a 422 (SQLSTATE 22021), never a 500', async () => {
    const res = await fetch(`${url}/unstorable`);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      errors: { '': ['must not contain U+0000'] },
    });
  });
});

describe('U+0000 in requests', () => {
  it('answers 404 in a path parameter, 422 naming the field in a query or body', async () => {
    const post = (path: string, body: unknown) => fetch(`${url}/api/t${path}`, json(body));
    expect((await post('/things/thg_1%00', { title: 'x' })).status).toBe(404);
    const query = await post('/things/thg_1?per_page=1%00', { title: 'x' });
    expect(query.status).toBe(422);
    // Not a number either: both reasons are given.
    const { errors } = (await query.json()) as { errors: Record<string, string[]> };
    expect(errors.per_page).toContain('must not contain U+0000');
    const body = await post('/things/thg_1', { title: 'x', tags: ['a', 'b\u0000'] });
    expect(body.status).toBe(422);
    expect(await body.json()).toMatchObject({
      detail: 'Invalid fields: tags.1.',
      errors: { 'tags.1': ['must not contain U+0000'] },
    });
  });

  it('answers 422 for a lone surrogate in a body (text with no UTF-8 form), naming the field', async () => {
    const raw = (text: string) =>
      fetch(`${url}/api/t/things/thg_1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
    const lone = await raw('{"title": "x\\ud800y", "tags": ["\\udc00", "\\ud83d\\ude00"]}');
    expect(lone.status).toBe(422);
    expect(await lone.json()).toMatchObject({
      detail: 'Invalid fields: title, tags.0.',
      errors: {
        title: ['must be valid Unicode (no lone surrogate)'],
        'tags.0': ['must be valid Unicode (no lone surrogate)'],
      },
    });
    // A whole pair is a character like any other.
    const pair = await raw('{"title": "\\ud83d\\ude00"}');
    expect(pair.status).toBe(200);
    expect(((await pair.json()) as { body: unknown }).body).toEqual({ title: '😀' });
  });

  it('answers 422 for a multipart text field holding it', async () => {
    const form = new FormData();
    form.set('note', 'a\u0000b');
    form.set('other', 'fine');
    const res = await fetch(`${url}/upload`, { method: 'POST', body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      detail: 'Invalid fields: note.',
      errors: { note: ['must not contain U+0000'] },
    });
  });
});

describe('unexpected errors', () => {
  it('are logged and answered 500 without detail', async () => {
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret internals');
    expect(JSON.parse(text)).toMatchObject({ code: 'internal_error', status: 500 });
    expect(JSON.stringify(logged)).toContain('secret internals');
  });
});
