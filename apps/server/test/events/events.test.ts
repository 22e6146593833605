// GET /api/v1/events and /api/v2/events over real HTTP on loopback: the caller's events in order,
// resumed after a dropped connection by Last-Event-ID, never a project the caller cannot open,
// and events another process stored (PostgreSQL LISTEN/NOTIFY, or the SQLite table polled).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '@galley/client';
import type { StreamItem } from '@galley/client';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { startProcess, startTestServer } from '../platform/harness.js';
import type { SecondProcess } from '../platform/harness.js';
import type { DraftBody, TestServer } from '../v1/helpers.js';
import { caller, createProject } from '../v1/helpers.js';
import { openEvents } from './event-reader.js';

const lockBody = { kind: 'agent', label: 'Events test' };

describeStores('event streams', (t) => {
  let s: TestServer;
  let other: SecondProcess;
  let otherStore: Store;
  let bob: { token: string };
  beforeAll(async () => {
    s = await startTestServer(
      { rateLimitPerMinute: 1_000_000 },
      { store: t.store, clock: t.clock },
    );
    bob = await s.addAccount('bob-events@example.org', 'Bob');
    otherStore = await openStore(t.options); // a connection of its own, as another process has
    other = await startProcess(otherStore, t.clock);
  });
  afterAll(async () => {
    await other?.close();
    await otherStore?.close();
    await s?.close();
  });

  it('sends a project’s events in order: lock, draft, save, release', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const index = pageIds['index.html']!;
    const ada = caller(s, s.token, 'agent-1');
    const view = openEvents(s.url, s.token, { project: id });
    // The stream is open once its headers came: the first read starts it.
    const first = view.next();
    await view.opened;
    expect((await ada('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    const draft = await ada<DraftBody>('GET', `/pages/${index}/draft`);
    const op = await ada('POST', `/pages/${index}/operations`, {
      json: {
        draft_token: draft.body.draft_token,
        operation: { kind: 'insert', parent: '#list', html: '<li id="two">Two</li>' },
      },
    });
    expect(op.status).toBe(200);
    const saved = await ada('PUT', `/pages/${index}/operations`, {
      json: {
        draft_token: (op.body as unknown as { draft_token: string }).draft_token,
        commit_id: randomUUID(),
      },
    });
    expect(saved.status).toBe(200);
    expect((await ada('DELETE', `/projects/${id}/lock`)).status).toBe(204);
    const items = [(await first)!, ...(await view.until('lock.released'))];
    expect(items.map((item) => item.kind)).toEqual([
      'lock.taken',
      'draft.changed',
      'draft.changed',
      'project.saved',
      'lock.released',
    ]);
    const ids = items.map((item) => Number((item as { id: string }).id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(items[0]).toMatchObject({ data: { project_id: id, lock: { kind: 'agent' } } });
    expect(items[1]).toMatchObject({ data: { page_id: index, action: 'opened' } });
    expect(items[2]).toMatchObject({ data: { page_id: index, action: 'operation' } });
    expect(items[3]).toMatchObject({ data: { project_id: id, kind: 'save', page_id: index } });
    view.close();
  });

  it('resumes after a dropped connection from Last-Event-ID, with what came meanwhile', async () => {
    const { id } = await createProject(s, s.token);
    const ada = caller(s, s.token, 'agent-2');
    const view = openEvents(s.url, s.token, { project: id });
    const first = view.next();
    await view.opened;
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const taken = (await first) as { id: string; kind: string };
    expect(taken.kind).toBe('lock.taken');
    view.close(); // dropped
    await ada('DELETE', `/projects/${id}/lock`);
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const resumed = openEvents(s.url, s.token, { project: id, lastEventId: taken.id });
    expect((await resumed.next())?.kind).toBe('lock.released');
    expect((await resumed.next())?.kind).toBe('lock.taken');
    resumed.close();
  });

  it('says resync when the events after Last-Event-ID are no longer kept', async () => {
    const { id } = await createProject(s, s.token);
    const ada = caller(s, s.token, 'agent-3');
    const stored = async (least: number) => {
      for (let tries = 0; (await t.store.events.bounds()).newest < least; tries++) {
        if (tries > 100) throw new Error('the events were not stored');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return t.store.events.bounds();
    };
    const start = (await t.store.events.bounds()).newest;
    for (let i = 0; i < 3; i++) {
      await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
      await ada('DELETE', `/projects/${id}/lock`);
    }
    const before = await stored(start + 6);
    await t.store.events.prune(new Date(t.clock.now().getTime() + 1)); // every event so far
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    const { oldest } = await stored(before.newest + 1);
    const again = openEvents(s.url, s.token, { lastEventId: String(oldest - 2) });
    expect(await again.next()).toEqual({ kind: 'resync', oldest_id: String(oldest) });
    expect(await again.next()).toMatchObject({ id: String(oldest), kind: 'lock.taken' });
    again.close();
  });

  it('never sends an event of a project the caller cannot open, until it is a member', async () => {
    const { id } = await createProject(s, s.token);
    const ada = caller(s, s.token, 'agent-4');
    const bobs = openEvents(s.url, bob.token);
    const first = bobs.next();
    await bobs.opened;
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody }); // not Bob's business
    await ada('DELETE', `/projects/${id}/lock`);
    const put = await ada('PUT', `/projects/${id}/members`, {
      json: { email: 'bob-events@example.org', role: 'viewer' },
    });
    expect(put.status).toBe(200);
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    expect(await first).toMatchObject({
      kind: 'project.members_changed',
      data: { project_id: id },
    });
    // (His own joining may come first: a request's event is stored after its answer.)
    expect((await bobs.until('lock.taken')).at(-1)).toMatchObject({ data: { project_id: id } });
    bobs.close();
    // Nor in a replay: Bob's resumption from the start shows only what he could open.
    const replay = openEvents(s.url, bob.token, { lastEventId: '0' });
    const all: StreamItem[] = [];
    for (let item = await replay.next(); item; item = await replay.next().catch(() => null)) {
      all.push(item);
      if (item.kind === 'lock.taken' && 'data' in item && item.data.project_id === id) break;
    }
    for (const item of all) {
      if (item.kind !== 'resync') expect(item.data).toMatchObject({ project_id: id });
    }
    replay.close();
  });

  it('tells former members that a project was deleted, and nothing of it afterwards', async () => {
    const { id, pageIds } = await createProject(s, s.token);
    const ada = caller(s, s.token, 'agent-6');
    const bobAsViewer = { json: { email: 'bob-events@example.org', role: 'viewer' } };
    expect((await ada('PUT', `/projects/${id}/members`, bobAsViewer)).status).toBe(200);
    const bobs = openEvents(s.url, bob.token);
    await bobs.opened;
    // Bob's stream has seen the project's events: it knows him as a member.
    await ada('PUT', `/projects/${id}/lock`, { json: lockBody });
    // (His own joining may come first: a request's event is stored after its answer.)
    expect((await bobs.until('lock.taken')).at(-1)).toMatchObject({ data: { project_id: id } });
    await ada('DELETE', `/projects/${id}/lock`);
    const released = (await bobs.next()) as { id: string; kind: string };
    expect(released.kind).toBe('lock.released');

    expect((await ada('DELETE', `/projects/${id}`)).status).toBe(204);
    const deleted = (await bobs.next()) as { id: string };
    expect(deleted).toEqual({
      id: String(Number(released.id) + 1),
      kind: 'project.deleted',
      at: expect.any(String) as string,
      data: { project_id: id },
    });
    // A write that another process finished meanwhile, its event stored after the deletion:
    await otherStore.events.append({
      kind: 'draft.changed',
      projectId: id,
      accountNumber: null,
      data: { project_id: id, page_id: pageIds['index.html'], action: 'operation' },
    });
    // … reaches no former member: the next event Bob gets is of a project he is in now.
    const { id: next } = await createProject(s, s.token);
    expect((await ada('PUT', `/projects/${next}/members`, bobAsViewer)).status).toBe(200);
    const after = await bobs.next();
    expect(after).toMatchObject({ kind: 'project.members_changed', data: { project_id: next } });
    bobs.close();

    // Resuming from before the deletion: it is told again, the late event is not.
    const resumed = openEvents(s.url, bob.token, { lastEventId: released.id });
    expect(await resumed.next()).toMatchObject({ id: deleted.id, kind: 'project.deleted' });
    expect(await resumed.next()).toEqual(after);
    resumed.close();
  });

  it('sends events another process stored', async () => {
    const { id } = await createProject(s, s.token);
    const onOther = caller({ ...s, url: other.url }, s.token, 'agent-5');
    const view = openEvents(s.url, s.token, { project: id });
    const first = view.next();
    await view.opened;
    expect((await onOther('PUT', `/projects/${id}/lock`, { json: lockBody })).status).toBe(200);
    expect(await first).toMatchObject({ kind: 'lock.taken', data: { project_id: id } });
    view.close();
  });

  it('sends an account’s asset events on /api/v2/events, and nobody else’s', async () => {
    const client = createClient({ baseUrl: s.url, token: s.token });
    const mine = openEvents(s.url, s.token, { api: 'v2' });
    const bobs = openEvents(s.url, bob.token, { api: 'v2' });
    const first = mine.next();
    const bobFirst = bobs.next().catch(() => null);
    await Promise.all([mine.opened, bobs.opened]);
    const created = await client.v2.createAsset({
      request_key: randomUUID(),
      kind: 'data',
      title: 'Palette',
      files: [
        {
          path: 'palette.json',
          json: { colors: [{ name: 'Ink', value: '#112233' }] },
          schema: 'svc://schemas/palette/1',
        },
      ],
    });
    expect(await first).toMatchObject({
      kind: 'asset.revised',
      data: { asset_id: created.asset.id, revision: 1 },
    });
    expect(await bobFirst).toBeNull();
    mine.close();
    bobs.close();
  });

  it('refuses a kind of the other interface in `kinds` (422), as webhooks do', async () => {
    for (const [api, kinds] of [
      ['v1', 'asset.revised'],
      ['v1', 'lock.taken,asset.renamed'],
      ['v2', 'lock.taken'],
    ] as const) {
      const res = await fetch(`${s.url}/api/${api}/events?kinds=${kinds}`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect([api, kinds, res.status]).toEqual([api, kinds, 422]);
      const problem = (await res.json()) as { code: string; errors: Record<string, string[]> };
      expect(problem.code).toBe('validation_failed');
      // The entry refused is named as a webhook's would be: kinds.<its index>.
      const refused = kinds
        .split(',')
        .findIndex((kind) => !kind.startsWith(api === 'v1' ? 'lock' : 'asset'));
      expect(Object.keys(problem.errors)).toEqual([`kinds.${refused}`]);
    }
  });
});
