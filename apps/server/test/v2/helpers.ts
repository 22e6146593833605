// Shared by the asset interface tests: a real server (see ../platform/harness.ts), a small
// fetch wrapper, and real images made here (PNG encoder) so sizes can be chosen exactly.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { deflateSync } from 'node:zlib';
import type { Problem, v2 } from '@galley/core';
import type { z } from 'zod';
import { loadConfig, startServer } from '@galley/server';
import { openStore } from '@galley/store';
import type { Store, TestClock } from '@galley/store';
import type { StoreTarget } from '../../../../packages/store/test/stores.js';
import { startTestServer } from '../platform/harness.js';
import type { TestServer } from '../platform/harness.js';

export { startTestServer };
export type { TestServer };

export type AssetAnswer = z.output<typeof v2.AssetEnvelope>;
export type Asset = AssetAnswer['asset'];
/** The members a problem may carry (decisions §1). */
export type ProblemAnswer = Problem & {
  current_revision?: number;
  errors?: Record<string, string[]>;
  violations?: Array<{
    code: string;
    path: string;
    message: string;
    expected: unknown;
    actual: unknown;
  }>;
};

/** An answer: `body` is T, or a problem's members when the call failed. */
export interface Reply<T = AssetAnswer> {
  status: number;
  headers: Headers;
  body: T & Partial<ProblemAnswer>;
  bytes: Buffer;
}

export interface CallOptions {
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  token?: string | null;
}

/** Calls `/api/v2{path}` as `token` (the test account's by default); parses JSON answers. */
export function clientOf(s: Pick<TestServer, 'url'> & { token?: string }, token = s.token ?? '') {
  return async function call<T = AssetAnswer>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const who = options.token === undefined ? token : options.token;
    if (who !== null) headers.authorization = `Bearer ${who}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await fetch(`${s.url}/api/v2${path}`, { method, headers, body });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const text = bytes.toString('utf8');
    const parsed: unknown = /json/.test(type) && bytes.length ? JSON.parse(text) : text;
    return { status: res.status, headers: res.headers, body: parsed as Reply<T>['body'], bytes };
  };
}

export type Call = ReturnType<typeof clientOf>;

export const key = (): string => randomUUID();

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real grey PNG of the given size (`shade` varies the bytes, so equal sizes can differ). */
export function png(width: number, height: number, shade = 0x80): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(width + 1, shade);
  row[0] = 0; // filter: none
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads bytes as a blob; answers its sha256. */
export async function uploadBlob(call: Call, bytes: Uint8Array): Promise<string> {
  const res = await call<{ sha256: string }>('POST', '/blobs', {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`blob: ${res.status}`);
  return res.body.sha256;
}

/** Registers an image from PNG bytes (through a blob); answers the asset. */
export async function createImage(
  call: Call,
  bytes: Buffer,
  title = 'Image',
  path = 'image.png',
): Promise<Asset> {
  const sha256 = await uploadBlob(call, bytes);
  const res = await call('POST', '/assets', {
    json: { request_key: key(), kind: 'image', title, files: [{ path, blob: sha256 }] },
  });
  if (res.status !== 201) throw new Error(`image: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.asset;
}

/** Registers a production of `medium` with more files; answers the asset. */
export async function createProduction(
  call: Call,
  options: { medium?: string; title?: string; files?: unknown[] } = {},
): Promise<Asset> {
  const res = await call('POST', '/assets', {
    json: {
      request_key: key(),
      kind: 'production',
      title: options.title ?? 'Production',
      medium: { id: options.medium ?? 'banner', version: 1 },
      media_contract: { version: '1.0' },
      files: options.files ?? [],
    },
  });
  if (res.status !== 201) throw new Error(`production: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.asset;
}

/**
 * A server on an already open store (from `describeStores`, so SQLite and PostgreSQL alike),
 * with a fresh account and its token, ready (its seeding done). Close it before the store.
 */
export async function serveStore(
  store: Store,
  clock: TestClock,
): Promise<{
  url: string;
  token: string;
  accountNumber: number;
  call: Call;
  close: () => Promise<void>;
}> {
  const config = loadConfig({}, { dataDir: tmpdir(), logLevel: 'silent' });
  const server = await startServer({
    store,
    clock,
    config,
    host: '127.0.0.1',
    port: 0,
    baseUrlFromListen: true,
  });
  const email = `${randomUUID()}@example.org`;
  const created = await store.accounts.create({ email, name: 'Served', password: 'pw' });
  if (!created.ok) throw new Error('account');
  const { accountNumber } = created.account;
  const { token } = await store.tokens.issue({ accountNumber });
  const call = clientOf({ url: server.url }, token);
  // The asset interface answers once the service fonts are seeded: after this, no writes of
  // the seeding mix with a test's.
  await call('GET', '/schemas');
  return { url: server.url, token, accountNumber, call, close: () => server.close() };
}

export type Served = Awaited<ReturnType<typeof serveStore>>;

/**
 * Two servers on one store, for races: `b` has a connection of its own, as another process has;
 * `onB` calls `b` as `a`'s account.
 */
export async function serveTwice(t: StoreTarget) {
  const a = await serveStore(t.store, t.clock);
  const storeB = await openStore(t.options);
  const b = await serveStore(storeB, t.clock);
  const onB = clientOf({ url: b.url }, a.token);
  const close = async () => {
    await b.close();
    await storeB.close();
    await a.close();
  };
  return { a, b, storeB, onB, close };
}
