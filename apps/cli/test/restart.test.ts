// A draft survives the service process itself: `galley serve` is stopped with SIGTERM and started
// again on the same data folder, and the client continues the draft and saves it.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readZip, writeZip } from '@galley/core';
import { folderOf, serveProcess, validProject } from './support/galley.js';

const dirs: string[] = [];

/** The fields of the answers this test reads (draft, operation, save, pages). */
interface Answer {
  draft_token?: string;
  html?: string;
  revision?: number;
  pages?: Array<{ id: string; file: string }>;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

it('continues a draft after the server process restarts, then saves it', async () => {
  const data = await mkdtemp(join(tmpdir(), 'galley-restart-'));
  dirs.push(data);
  let server = await serveProcess(data);
  const token = /API token:\s+(glly_\S+)/.exec(server.output())?.[1];
  expect(token).toBeDefined();
  const client = randomUUID();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-editor-client': client,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => null)) as Answer,
    };
  };

  const form = new FormData();
  form.set('zip', new Blob([writeZip(folderOf(validProject()))]), 'folder.zip');
  const created = await fetch(`${server.url}/api/v1/projects/folder`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-editor-client': client },
    body: form,
  });
  expect(created.status).toBe(201);
  const project = (await created.json()) as { id: string };
  const pages = await call('GET', `/projects/${project.id}/pages`);
  const page = pages.body.pages!.find((p) => p.file === 'index.html')!;
  expect(
    (await call('PUT', `/projects/${project.id}/lock`, { kind: 'agent', label: 'restart' })).status,
  ).toBe(200);
  const opened = await call('GET', `/pages/${page.id}/draft`);
  const inserted = await call('POST', `/pages/${page.id}/operations`, {
    draft_token: opened.body.draft_token,
    operation: { kind: 'insert', parent: '@0', html: '<p id="kept">survives</p>' },
  });
  expect(inserted.status).toBe(200);

  expect(await server.stop()).toBe(0);
  server = await serveProcess(data);

  // The lock is still in force (well within 60 s) and the draft comes back from the store.
  const reopened = await call('GET', `/pages/${page.id}/draft`);
  expect(reopened.status).toBe(200);
  expect(reopened.body.draft_token).toBe(inserted.body.draft_token);
  expect(reopened.body.html).toContain('<p id="kept">survives</p>');
  const second = await call('POST', `/pages/${page.id}/operations`, {
    draft_token: reopened.body.draft_token,
    operation: { kind: 'swap', target: '#kept', html: 'saved after a restart' },
  });
  expect(second.status).toBe(200);
  const saved = await call('PUT', `/pages/${page.id}/operations`, {
    draft_token: second.body.draft_token,
    commit_id: randomUUID(),
  });
  expect(saved.status).toBe(200);
  expect(saved.body.revision).toBe(2);

  const zip = await fetch(`${server.url}/api/v1/projects/${project.id}/folder`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const folder = readZip(new Uint8Array(await zip.arrayBuffer())).folder;
  expect(new TextDecoder().decode(folder.get('index.html'))).toContain(
    '<p id="kept">saved after a restart</p>',
  );
  expect(await server.stop()).toBe(0);
});
