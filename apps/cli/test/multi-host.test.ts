// The service on two hosts: two `galley serve` processes, each on a data folder of its own
// (nothing on a shared disk), one PostgreSQL database and one bucket on an S3-compatible server.
// What one process is told, the other knows; races between them have one winner; a process
// killed mid-upload leaves nothing half-written and loses nothing it acknowledged.
import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@galley/store/ids';
import { writeZip } from '@galley/core';
import { freshPostgresDatabase, postgresSkipReason } from '../../../packages/store/test/stores.js';
import { freshBucket, s3SkipReason } from '../../../packages/store/test/s3.js';
import type { TestBucket } from '../../../packages/store/test/s3.js';
import { S3ByteStore } from '../../../packages/store/src/bytes/s3-byte-store.js';
import { folderOf, removeDirectory, serveProcess, validProject } from './support/galley.js';
import type { Serving } from './support/galley.js';

const skip = postgresSkipReason ?? s3SkipReason;
if (skip) console.warn(`skipped: the service on two hosts: ${skip}`);

const MiB = 1024 * 1024;
/** Requests a minute per token on both processes: one budget, counted in the database. */
const RATE_LIMIT = 120;
/**
 * A PNG as the inspection reads one (signature and a 100 × 100 header), then `size` bytes in all
 * that differ with `seed`: big contents without encoding an image that big.
 */
function bytesOf(size: number, seed: number): Uint8Array {
  const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed * 7 + (i >> 12)) % 251);
  const header = Buffer.alloc(17);
  header.write('IHDR', 0, 'latin1');
  header.writeUInt32BE(100, 4);
  header.writeUInt32BE(100, 8);
  header.set([8, 0, 0, 0, 0], 12); // 8-bit greyscale
  const chunk = Buffer.alloc(25);
  chunk.writeUInt32BE(13, 0);
  header.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(header), 21);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk]);
  return bytes;
}

// Every upload and read crosses two processes, PostgreSQL and s3rver: minutes on a loaded machine.
describe.skipIf(!!skip)('the service on two hosts', () => {
  let bucket: TestBucket;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  const folders: string[] = [];
  let a: Serving;
  let b: Serving;
  let token: string;

  const start = async () => {
    const data = await mkdtemp(join(tmpdir(), 'galley-host-'));
    folders.push(data);
    return serveProcess(data, {
      env: {
        ...bucket.env,
        GALLEY_DATABASE_URL: database.url,
        GALLEY_WORKERS: '1', // one process per host here: the hosts are the point
        GALLEY_RATE_LIMIT: String(RATE_LIMIT),
      },
    });
  };

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    bucket = await freshBucket();
    a = await start();
    token = /API token:\s+(glly_\S+)/.exec(a.output())![1]!;
    b = await start(); // the office exists: B prints no credentials
  }, 120_000);

  afterAll(async () => {
    const running = [a, b].filter((on) => on?.child.exitCode === null && !on.child.signalCode);
    await Promise.all(running.map((on) => on.stop()));
    await database?.drop();
    await bucket?.remove();
    for (const folder of folders) await removeDirectory(folder);
  });

  const call = async (
    on: Serving,
    method: string,
    path: string,
    options: {
      json?: unknown;
      body?: RequestInit['body'];
      headers?: Record<string, string>;
      as?: string;
    } = {},
  ) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.as ?? token}`,
      ...options.headers,
    };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${on.url}${path}`, {
      method,
      headers,
      body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = /json/.test(res.headers.get('content-type') ?? '')
      ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>)
      : null;
    return { status: res.status, json, bytes };
  };
  const upload = (on: Serving, bytes: Uint8Array) =>
    call(on, 'POST', '/api/v2/blobs', {
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
  const register = (on: Serving, blob: string, requestKey = randomUUID(), title = 'Shared') =>
    call(on, 'POST', '/api/v2/assets', {
      json: {
        request_key: requestKey,
        kind: 'production',
        title,
        medium: { id: 'banner', version: 1 },
        media_contract: { version: '1.0' },
        files: [{ path: 'canvas/still.png', blob }],
      },
    });

  it('is ready on both, each with a data folder of its own', async () => {
    for (const on of [a, b]) {
      const ready = await fetch(`${on.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    }
    expect(folders).toHaveLength(2);
  });

  it('reads through one process, whole and in ranges, what was uploaded through the other', async () => {
    for (const [size, seed] of [
      [1000, 1], // one PUT under its hash
      [10 * MiB + 7, 2], // a multipart upload (two parts), then named
    ] as const) {
      const bytes = bytesOf(size, seed);
      const blob = await upload(a, bytes);
      expect([blob.status, blob.json]).toEqual([201, { sha256: sha256Hex(bytes), size }]);
      const asset = await register(b, sha256Hex(bytes));
      expect(asset.status).toBe(201);
      const id = (asset.json!.asset as { id: string }).id;
      const file = `/api/v2/assets/${id}/files/canvas%2Fstill.png`;
      for (const on of [b, a]) {
        const whole = await call(on, 'GET', file);
        expect([whole.status, whole.bytes.equals(bytes)]).toEqual([200, true]);
        const end = size - 1;
        const part = await call(on, 'GET', file, {
          headers: { range: `bytes=${end - 99}-${end}` },
        });
        expect([part.status, part.bytes.equals(bytes.subarray(end - 99))]).toEqual([206, true]);
      }
    }
  }, 120_000);

  it('gives a request_key sent to both at once one write, answered alike', async () => {
    const blob = await upload(a, bytesOf(500, 3));
    const requestKey = randomUUID();
    const blobSha = (blob.json as { sha256: string }).sha256;
    const answers = await Promise.all([
      register(a, blobSha, requestKey, 'Once'),
      register(b, blobSha, requestKey, 'Once'),
    ]);
    // The second either waited for the first's answer, or was told the first still runs.
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    const winners = answers.filter((answer) => answer.status === 201);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(winners.map((w) => (w.json!.asset as { id: string }).id));
    expect(ids.size).toBe(1);
    const again = await register(b, blobSha, requestKey, 'Once');
    expect(again.status).toBe(201);
    expect((again.json!.asset as { id: string }).id).toBe([...ids][0]);
    const listed = await call(b, 'GET', '/api/v2/assets?per_page=100');
    const titled = (listed.json!.assets as Array<{ title: string }>).filter(
      (x) => x.title === 'Once',
    );
    expect(titled).toHaveLength(1);
  });

  it('gives two revisions on the same base, one through each, one winner', async () => {
    const blob = await upload(b, bytesOf(700, 4));
    const created = await register(a, (blob.json as { sha256: string }).sha256);
    const id = (created.json!.asset as { id: string }).id;
    const revise = (on: Serving, text: string) =>
      call(on, 'POST', `/api/v2/assets/${id}/revisions`, {
        json: {
          request_key: randomUUID(),
          base_revision: 1,
          put: [{ path: 'canvas/x.css', text }],
        },
      });
    const answers = await Promise.all([revise(a, 'a{}'), revise(b, 'b{}')]);
    expect(answers.map((x) => x.status).sort()).toEqual([201, 409]);
    const asset = await call(a, 'GET', `/api/v2/assets/${id}`);
    expect((asset.json!.asset as { revision: { number: number } }).revision.number).toBe(2);
  });

  it('gives the edit lock, asked through both at once, to one client', async () => {
    const form = new FormData();
    form.set('zip', new Blob([writeZip(folderOf(validProject()))]), 'folder.zip');
    const created = await call(a, 'POST', '/api/v1/projects/folder', {
      body: form,
      headers: { 'x-editor-client': randomUUID() },
    });
    expect(created.status).toBe(201);
    const id = created.json!.id as string;
    const lock = (on: Serving) =>
      call(on, 'PUT', `/api/v1/projects/${id}/lock`, {
        json: { kind: 'agent', label: 'Race' },
        headers: { 'x-editor-client': randomUUID() },
      });
    const answers = await Promise.all([lock(a), lock(b)]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 423]);
  });

  it('counts one rate-limit budget for a token, whichever process it calls', async () => {
    const fresh = await freshToken();
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 30; i++) {
      statuses.push((await call(i % 2 ? a : b, 'GET', '/api/v2/schemas', { as: fresh })).status);
    }
    // Two budgets would have let every request through (each process saw fewer than the limit).
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.slice(RATE_LIMIT)).toEqual(Array<number>(30).fill(429));
  });

  /** A new token of the office, issued through the screen's routes (a budget of its own). */
  async function freshToken(): Promise<string> {
    const password = /password:\s+(\S+)/.exec(a.output())![1]!;
    const email = /e-mail:\s+(\S+)/.exec(a.output())![1]!;
    const login = await fetch(`${b.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { csrf_token } = (await login.json()) as { csrf_token: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const issued = await fetch(`${a.url}/auth/tokens`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf_token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(issued.status).toBe(201);
    return ((await issued.json()) as { token: string }).token;
  }

  it('keeps what a process acknowledged, and nothing half-written, when it is killed mid-upload', async () => {
    const kept = bytesOf(3 * MiB, 5);
    expect((await upload(a, kept)).status).toBe(201);
    const asset = await register(a, sha256Hex(kept), randomUUID(), 'Acknowledged');
    expect(asset.status).toBe(201);
    const keysBefore = (await bucket.keys()).filter((key) => !key.includes('/tmp/'));

    // 64 MiB sent in 1 MiB chunks; A is killed once 24 MiB are in (staged on A's disk).
    let sent = 0;
    let killed: Promise<unknown> | undefined;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (sent >= 24 * MiB) {
          killed ??= a.stop('SIGKILL');
          await killed;
        }
        controller.enqueue(bytesOf(MiB, 6 + sent / MiB));
        sent += MiB;
        if (sent >= 64 * MiB) controller.close();
      },
    });
    const cut = await fetch(`${a.url}/api/v2/blobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    }).catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(Error); // no answer: the process died mid-body
    expect(killed).toBeDefined();

    // A's staged file had no name (it lived through its open handle): nothing is left of it.
    expect(await readdir(join(folders[0]!, 'bytes', 'staging'))).toEqual([]);
    // Nothing new under a content name, and every content name holds the bytes it names.
    const after = (await bucket.keys()).filter((key) => !key.includes('/tmp/'));
    expect(after).toEqual(keysBefore);
    const reader = new S3ByteStore(bucket.options);
    try {
      for (const key of after) {
        const name = key.slice(key.lastIndexOf('/') + 1);
        expect(sha256Hex(await buffer((await reader.read(name))!))).toBe(name);
      }
    } finally {
      reader.close();
    }
    // What A acknowledged is there through B.
    const id = (asset.json!.asset as { id: string }).id;
    const file = await call(b, 'GET', `/api/v2/assets/${id}/files/canvas%2Fstill.png`);
    expect([file.status, file.bytes.equals(kept)]).toEqual([200, true]);
  }, 120_000);
});
