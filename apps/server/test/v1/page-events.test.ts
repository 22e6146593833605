// GET /pages/{page}/events: a live read-only view of a page over server-sent events, read with
// fetch (through the typed client) on loopback: the lock, the holder's draft, saves.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '@galley/client';
import type { v1 } from '@galley/core';
import { openStore } from '@galley/store';
import { loadConfig, startServer } from '@galley/server';
import type { RunningServer } from '@galley/server';
import type { z } from 'zod';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { startTestServer } from '../platform/harness.js';
import type { DraftBody, LockBody, OperationBody, SavedBody, TestServer } from './helpers.js';
import { call, caller, createProject, screenSession } from './helpers.js';

type PageEvent = z.output<typeof v1.PageEvent>;

const lockBody = { kind: 'screen', label: 'Live views' };
/** Long enough for an event that is coming, on a slow host; the re-check runs every second. */
const WAIT_MS = 5_000;

/** A reader of a page's events: the next one (null when the stream ended), and a way to stop. */
function watch(s: { url: string }, token: string, pageId: string) {
  const stop = new AbortController();
  const client = createClient({ baseUrl: s.url, token });
  const events = client.v1.pageEvents(pageId, { signal: stop.signal });
  return {
    async next(): Promise<PageEvent | null> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no event came')), WAIT_MS);
      });
      try {
        const read = await Promise.race([events.next(), late]);
        return read.done ? null : read.value;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => stop.abort(),
  };
}

describeStores('page events', (t) => {
  let s: TestServer;
  let bob: { token: string; password: string };
  beforeAll(async () => {
    s = await startTestServer({ rateLimitPerMinute: 1_000_000, eventStreamsPerAccount: 3 }, t);
    bob = await s.addAccount('bob@example.org', 'Bob');
  });
  afterAll(() => s?.close());

  /** A project of Ada's that Bob may view; Ada's caller on the editing screen's client. */
  async function viewed() {
    const created = await createProject(s, s.token);
    const ada = caller(s, s.token, 'ada-screen');
    const put = await ada('PUT', `/projects/${created.id}/members`, {
      json: { email: 'bob@example.org', role: 'viewer' },
    });
    expect(put.status).toBe(200);
    return { ...created, ada, index: created.pageIds['index.html']! };
  }

  it('tells the lock on connect, when it is taken and when it is released', async () => {
    const { id, ada, index } = await viewed();
    const view = watch(s, bob.token, index);
    expect(await view.next()).toEqual({ event: 'lock', data: { lock: null } });
    const taken = await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect(await view.next()).toEqual({ event: 'lock', data: { lock: taken.body.lock } });
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    expect(await view.next()).toEqual({ event: 'lock', data: { lock: null } });
    view.close();
  });

  it('names a holder that let the lock go with unsaved changes, until the lock is taken', async () => {
    const { id, ada, index, pageIds } = await viewed();
    const about = pageIds['about.html']!;
    const view = watch(s, bob.token, index);
    expect(await view.next()).toEqual({ event: 'lock', data: { lock: null } });
    await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect((await view.next())?.event).toBe('lock');
    // Nothing unsaved: a plain release.
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    expect(await view.next()).toEqual({ event: 'lock', data: { lock: null } });

    // A change left unsaved on another page of the project counts too.
    await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect((await view.next())?.event).toBe('lock');
    const draft = await ada<DraftBody>('GET', `/pages/${about}/draft`);
    const operation = { kind: 'remove', target: '#about' };
    const done = await ada<OperationBody>('POST', `/pages/${about}/operations`, {
      json: { draft_token: draft.body.draft_token, operation },
    });
    expect(done.status).toBe(200);
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    const left = { lock: null, left_unsaved: { name: 'Ada' } };
    expect(await view.next()).toEqual({ event: 'lock', data: left });
    // A view that connects meanwhile is told the same; a read of the page again (a rename saves
    // the project) tells nothing new of the lock; taken again, it is a lock like any other.
    const late = watch(s, bob.token, index);
    expect(await late.next()).toEqual({ event: 'lock', data: left });
    expect((await ada('PATCH', `/projects/${id}`, { json: { title: 'Renamed' } })).status).toBe(
      200,
    );
    expect(await view.next()).toEqual({ event: 'saved', data: { revision: 2 } });
    const taken = await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect(await view.next()).toEqual({ event: 'lock', data: { lock: taken.body.lock } });
    // Let go with the change undone: a plain release.
    expect((await ada('POST', `/pages/${about}/draft/undo`)).status).toBe(200);
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    expect(await view.next()).toEqual({ event: 'lock', data: { lock: null } });
    view.close();
    late.close();
  });

  it('sends the holder’s draft as it changes, and the saves', async () => {
    const { id, ada, index } = await viewed();
    const view = watch(s, bob.token, index);
    expect((await view.next())?.event).toBe('lock');
    await ada<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect((await view.next())?.event).toBe('lock');

    const draft = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    expect(await view.next()).toEqual({
      event: 'draft',
      data: { sequence: 0, base_revision: 1, html: draft.body.html, by: { name: 'Ada' } },
    });
    const operation = { kind: 'insert', parent: '#list', html: '<li id="two">Two</li>' };
    const done = await ada<OperationBody>('POST', `/pages/${index}/operations`, {
      json: { draft_token: draft.body.draft_token, operation },
    });
    expect(done.status).toBe(200);
    const changed = await view.next();
    expect(changed).toMatchObject({ event: 'draft', data: { sequence: 1, base_revision: 1 } });
    const html = changed?.event === 'draft' ? changed.data.html : '';
    expect(html).toContain('<li id="two">Two</li>');
    expect((await ada('POST', `/pages/${index}/draft/undo`)).status).toBe(200);
    expect(await view.next()).toEqual({
      event: 'draft',
      data: { sequence: 2, base_revision: 1, html: draft.body.html, by: { name: 'Ada' } },
    });
    const redone = await ada<OperationBody>('POST', `/pages/${index}/draft/redo`);
    expect(await view.next()).toMatchObject({ event: 'draft', data: { sequence: 3, html } });

    // A save: the revision moved, and the draft goes on on it.
    const saved = await ada<SavedBody>('PUT', `/pages/${index}/operations`, {
      json: { draft_token: redone.body.draft_token, commit_id: randomUUID() },
    });
    expect(saved.body.revision).toBe(2);
    expect(await view.next()).toEqual({ event: 'saved', data: { revision: 2 } });
    expect(await view.next()).toMatchObject({
      event: 'draft',
      data: { base_revision: 2, html },
    });

    // A view that connects now is told the lock and the draft at once.
    const late = watch(s, bob.token, index);
    expect((await late.next())?.event).toBe('lock');
    expect(await late.next()).toMatchObject({ event: 'draft', data: { base_revision: 2, html } });

    // Discarded: the saved page, as a draft opened anew.
    expect((await ada('DELETE', `/pages/${index}/draft`)).status).toBe(204);
    const discarded = { event: 'draft', data: { sequence: 0, base_revision: 2, html } };
    expect(await view.next()).toMatchObject(discarded);
    expect(await late.next()).toMatchObject(discarded);
    view.close();
    late.close();
  });

  it('answers a stream to the screen’s session, with the stream’s headers', async () => {
    const { index } = await viewed();
    const { cookie } = await screenSession(s, 'bob@example.org', bob.password);
    const stop = new AbortController();
    const res = await fetch(`${s.url}/api/v1/pages/${index}/events`, {
      headers: { cookie, accept: 'text/event-stream' },
      signal: stop.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n\nevent: lock\n')) text += (await reader.read()).value ?? '';
    expect(text).toMatch(/^retry: \d+\n\nevent: lock\ndata: \{"lock":null\}\n\n$/);
    stop.abort();
  });

  it('refuses a non-member, an unknown page and a caller without credentials', async () => {
    const { index } = await viewed();
    const cy = await s.addAccount(`cy-${t.kind}@example.org`, 'Cy');
    const answers = [
      await call(s, 'GET', `/pages/${index}/events`, { token: cy.token }),
      await call(s, 'GET', `/pages/pg_00000000000000000000/events`, { token: s.token }),
      await call(s, 'GET', `/pages/not-a-page/events`, { token: s.token }),
      await call(s, 'GET', `/pages/${index}/events`),
    ];
    expect(answers.map((a) => [a.status, a.body.code])).toEqual([
      [404, 'not_found'],
      [404, 'not_found'],
      [404, 'not_found'],
      [401, 'unauthorized'],
    ]);
    await expect(watch(s, cy.token, index).next()).rejects.toMatchObject({ status: 404 });
  });

  it('bounds the streams an account may have open', async () => {
    const { index } = await viewed();
    const views = [1, 2, 3].map(() => watch(s, bob.token, index));
    for (const view of views) expect((await view.next())?.event).toBe('lock');
    const refused = await call(s, 'GET', `/pages/${index}/events`, { token: bob.token });
    expect([refused.status, refused.body.code]).toEqual([429, 'too_many_streams']);
    expect(refused.headers.get('retry-after')).toBe('5');
    // Another account is not held back; a closed stream makes room.
    const ada = watch(s, s.token, index);
    expect((await ada.next())?.event).toBe('lock');
    ada.close();
    views[0]!.close();
    const opened: Array<ReturnType<typeof watch>> = [];
    await expect
      .poll(
        async () => {
          const attempt = watch(s, bob.token, index);
          opened.push(attempt);
          return (await attempt.next().catch(() => null))?.event;
        },
        { timeout: WAIT_MS },
      )
      .toBe('lock');
    for (const view of [...views, ...opened]) view.close();
  });

  it('follows changes another process makes, by reading the page again', async () => {
    const { id, index } = await viewed();
    const other = await openStore(t.options);
    const dataDir = await mkdtemp(join(tmpdir(), 'galley-server-'));
    let b: RunningServer | undefined;
    try {
      b = await startServer({
        store: other,
        clock: t.clock,
        config: loadConfig({}, { dataDir, logLevel: 'silent', rateLimitPerMinute: 1_000_000 }),
        host: '127.0.0.1',
        port: 0,
        baseUrlFromListen: true,
      });
      const view = watch(s, bob.token, index);
      expect(await view.next()).toEqual({ event: 'lock', data: { lock: null } });
      const onB = caller({ ...s, url: b.url }, s.token, 'ada-elsewhere');
      const taken = await onB<LockBody>('PUT', `/projects/${id}/lock`, { json: lockBody });
      expect(taken.status).toBe(200);
      expect(await view.next()).toEqual({ event: 'lock', data: { lock: taken.body.lock } });
      const draft = await onB<DraftBody>('GET', `/pages/${index}/draft`);
      expect(await view.next()).toMatchObject({ event: 'draft', data: { html: draft.body.html } });
      view.close();
    } finally {
      await b?.close();
      await other.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('ends the streams when the server closes, without waiting for them', async () => {
    const alone = await startTestServer({}, { store: (await t.fresh()).store, clock: t.clock });
    const index = (await createProject(alone, alone.token)).pageIds['index.html']!;
    const view = watch(alone, alone.token, index);
    expect((await view.next())?.event).toBe('lock');
    const started = Date.now();
    await alone.close();
    expect(await view.next()).toBeNull();
    // (Open answers would otherwise get 20 seconds before their connections were cut.)
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
