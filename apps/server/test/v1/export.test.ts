// GET folder and GET folder/{version}: ZIPs streamed as they are written or read, with the same
// bytes the service always wrote (reproducible ZIPs are a contract), their SHA-256 in ETag and
// X-Content-SHA256 from the first answer on, and 304 for a copy the client has.
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readZip, writeZip, zipDeflateLevel } from '@galley/core';
import { sha256Hex } from '@galley/store';
import { revalidated } from '../platform/support/revalidate.js';
import type { ConfirmationBody, TestServer } from './helpers.js';
import {
  call,
  caller,
  createProject,
  projectFolder,
  screenSession,
  startV1Server,
} from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

/** The ZIP as the service wrote it before it streamed: the whole folder through writeZip. */
const zipOf = (folder: Map<string, Uint8Array>) =>
  writeZip(folder, { deflate: (data) => deflateRawSync(data, { level: zipDeflateLevel }) });

it('streams the folder’s ZIP, byte for byte the writer’s, with its digest in the headers', async () => {
  const { id } = await createProject(s, s.token, 'Export');
  const api = caller(s, s.token);
  const expected = zipOf(projectFolder('Export'));
  // The first answer learns the digest; the next ones know it: the same bytes and headers.
  for (let round = 0; round < 2; round++) {
    const zip = await api('GET', `/projects/${id}/folder`);
    expect(zip.status).toBe(200);
    expect(Buffer.from(zip.bytes).equals(Buffer.from(expected))).toBe(true);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-length')).toBe(String(expected.length));
    expect(zip.headers.get('x-content-sha256')).toBe(sha256Hex(expected));
    expect(zip.headers.get('etag')).toBe(`"${sha256Hex(expected)}"`);
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="${id}-r1.zip"`);
  }
  const etag = `"${sha256Hex(expected)}"`;
  const same = await api('GET', `/projects/${id}/folder`, { headers: { 'if-none-match': etag } });
  expect([same.status, same.bytes.length, same.headers.get('etag')]).toEqual([304, 0, etag]);
  const other = await api('GET', `/projects/${id}/folder`, {
    headers: { 'if-none-match': `"${'0'.repeat(64)}"` },
  });
  expect(other.status).toBe(200);
  expect(sha256Hex(other.bytes)).toBe(sha256Hex(expected));

  // A rename is a new folder: a new ZIP and digest.
  await api('PATCH', `/projects/${id}`, { json: { title: 'Renamed' } });
  const renamed = await api('GET', `/projects/${id}/folder`, {
    headers: { 'if-none-match': etag },
  });
  expect(renamed.status).toBe(200);
  expect(readZip(renamed.bytes).folder.get('project.json')).toBeDefined();
  expect(Buffer.from(renamed.bytes).equals(Buffer.from(zipOf(readZip(renamed.bytes).folder)))).toBe(
    true,
  );
  expect(renamed.headers.get('etag')).toBe(`"${sha256Hex(renamed.bytes)}"`);
});

it('streams a confirmed version’s stored ZIP, and answers 304 for the copy the client has', async () => {
  const { id } = await createProject(s, s.token, 'Confirmed');
  const api = caller(s, s.token);
  const { cookie, csrf } = await screenSession(s, 'ada@example.org', s.password);
  const confirmed = await call<ConfirmationBody>(s, 'POST', `/projects/${id}/confirmations`, {
    client: 'screen-1',
    headers: { cookie, 'x-csrf-token': csrf },
    json: {},
  });
  expect(confirmed.status).toBe(201);
  const zip = await api('GET', `/projects/${id}/folder/1`);
  expect(zip.status).toBe(200);
  expect(sha256Hex(zip.bytes)).toBe(confirmed.body.sha256);
  expect(Buffer.from(zip.bytes).equals(Buffer.from(zipOf(projectFolder('Confirmed'))))).toBe(true);
  expect(zip.headers.get('content-length')).toBe(String(zip.bytes.length));
  expect(zip.headers.get('x-content-sha256')).toBe(confirmed.body.sha256);
  const etag = `"${confirmed.body.sha256}"`;
  expect(zip.headers.get('etag')).toBe(etag);
  const same = await api('GET', `/projects/${id}/folder/1`, { headers: { 'if-none-match': etag } });
  expect([same.status, same.bytes.length]).toEqual([304, 0]);
  const url = `${s.url}/api/v1/projects/${id}/folder/1`;
  const authorization = `Bearer ${s.token}`;
  expect(await revalidated(url, etag, { authorization })).toEqual({ noCache: 304, fetch: 304 });
});

it('answers 304 to a matching If-None-Match whatever the request’s Cache-Control says', async () => {
  const { id } = await createProject(s, s.token, 'Revalidated');
  const url = `${s.url}/api/v1/projects/${id}/folder`;
  const authorization = `Bearer ${s.token}`;
  const etag = `"${sha256Hex(zipOf(projectFolder('Revalidated')))}"`;
  expect(await revalidated(url, etag, { authorization })).toEqual({ noCache: 304, fetch: 304 });
  expect(await revalidated(url, `"${'0'.repeat(64)}"`, { authorization })).toEqual({
    noCache: 200,
    fetch: 200,
  });
});
