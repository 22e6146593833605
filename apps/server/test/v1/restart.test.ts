// Drafts survive a restart: the base and the operation log are stored, the parsed draft is
// rebuilt on first use by the new process.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TestClock, openStore } from '@galley/store';
import { loadConfig, startServer } from '@galley/server';
import type { DraftBody, OperationBody, SavedBody, TestServer } from './helpers.js';
import { caller, createProject } from './helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  // Retries: a background task of another interface (font seeding) may still be writing bytes.
  for (const dir of dirs) await rm(dir, { recursive: true, force: true, maxRetries: 10 });
});

/** A server over `dataDir`, shaped like the harness's TestServer for the helpers. */
async function serve(dataDir: string, clock: TestClock) {
  const store = await openStore({ kind: 'sqlite', dataDir, clock });
  const config = loadConfig({}, { dataDir, logLevel: 'silent', rateLimitPerMinute: 100_000 });
  const server = await startServer({
    store,
    clock,
    config,
    host: '127.0.0.1',
    port: 0,
    baseUrlFromListen: true,
  });
  return {
    s: { url: server.url } as TestServer,
    stop: async () => {
      await server.close();
      await store.close();
    },
  };
}

it('continues a draft after the server restarts on the same data folder, and saves it', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'galley-restart-'));
  dirs.push(dataDir);
  const clock = new TestClock();
  const setup = await openStore({ kind: 'sqlite', dataDir, clock });
  const made = await setup.accounts.create({
    email: 'ada@example.org',
    name: 'Ada',
    password: 'pw',
  });
  if (!made.ok) throw new Error('setup');
  const { token } = await setup.tokens.issue({ accountNumber: made.account.accountNumber });
  await setup.close();

  const first = await serve(dataDir, clock);
  const { id, pageIds } = await createProject(first.s, token);
  const index = pageIds['index.html']!;
  let ada = caller(first.s, token, 'long-run');
  await ada('PUT', `/projects/${id}/lock`, { json: { kind: 'agent', label: 'bot' } });
  const draft = await ada<DraftBody>('GET', `/pages/${index}/draft`);
  const op1 = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
    json: {
      draft_token: draft.body.draft_token,
      operation: { kind: 'insert', parent: '#list', html: '<li id="a">A</li>' },
    },
  });
  const op2 = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
    json: {
      draft_token: op1.body.draft_token,
      operation: { kind: 'insert', parent: '#list', html: '<li id="b">B</li>' },
    },
  });
  const undo = await ada<OperationBody>('POST', `/pages/${index}/draft/undo`);
  expect(undo.body).toMatchObject({ can_undo: true, can_redo: true });
  const before = await ada<DraftBody>('GET', `/pages/${index}/draft`);
  await first.stop();

  const second = await serve(dataDir, clock);
  ada = caller(second.s, token, 'long-run');
  const rebuilt = await ada<DraftBody>('GET', `/pages/${index}/draft`);
  expect(rebuilt.status).toBe(200);
  expect(rebuilt.body).toEqual({ ...before.body });
  expect(op2.body.draft_token).not.toBe(rebuilt.body.draft_token);
  // The redo stack survived too.
  const redo = await ada<OperationBody>('POST', `/pages/${index}/draft/redo`);
  expect(redo.body).toMatchObject({ can_undo: true, can_redo: false, result: { ids: ['b'] } });
  const op3 = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
    json: { draft_token: redo.body.draft_token, operation: { kind: 'remove', target: '#intro' } },
  });
  expect(op3.status).toBe(200);
  const saved = await ada<SavedBody>('PUT', `/pages/${index}/operations`, {
    json: { draft_token: op3.body.draft_token, commit_id: randomUUID() },
  });
  expect(saved.status).toBe(200);
  expect(saved.body.revision).toBe(2);
  const after = await ada<DraftBody>('GET', `/pages/${index}/draft`);
  expect(after.body.html).toContain('<li id="a">A</li><li id="b">B</li>');
  expect(after.body.html).not.toContain('id="intro"');
  await second.stop();
});
