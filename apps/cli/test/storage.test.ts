// Storage that fails under a running `galley serve`: a file the disk will not take is 507
// `storage_full` (never a 500), the process lives on, and later writes that fit succeed.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { serveProcess } from './support/galley.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** No file past 8 MiB (`ulimit -f`): the service's own files stay far below it. */
const FILE_LIMIT_KIB = 8 * 1024;

it('answers 507 storage_full when the disk takes no more, and goes on serving', async () => {
  const data = await mkdtemp(join(tmpdir(), 'galley-storage-'));
  dirs.push(data);
  const server = await serveProcess(data, { limitFileKiB: FILE_LIMIT_KIB });
  const token = /API token:\s+(glly_\S+)/.exec(server.output())?.[1];
  expect(token).toBeDefined();
  const upload = (bytes: Uint8Array) =>
    fetch(`${server.url}/api/v2/blobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: bytes,
    });

  const tooBig = await upload(randomBytes((FILE_LIMIT_KIB + 1024) * 1024));
  expect(tooBig.status).toBe(507);
  expect(tooBig.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(await tooBig.json()).toMatchObject({
    status: 507,
    code: 'storage_full',
    title: 'Storage full',
    detail: 'The service has no room left to store this.',
  });

  const fits = await upload(randomBytes(64 * 1024));
  expect(fits.status).toBe(201);
  const stored = (await fits.json()) as { sha256: string };
  expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(await server.stop()).toBe(0);
});
