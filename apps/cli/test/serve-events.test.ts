// Events across `galley serve` processes: A (one process) and B (a cluster of two workers) on one
// database, a SQLite file (each process reads the events table every 200 ms) or PostgreSQL
// (LISTEN/NOTIFY). Real processes over real HTTP on loopback: what is written through one process
// reaches the event streams of the others, in order, and a stream resumed on B by Last-Event-ID
// gets the events that were written through A meanwhile.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../packages/store/test/stores.js';
import { openEvents } from '../../server/test/events/event-reader.js';
import { pidsOf, serveProcess, storeOf } from './support/galley.js';
import type { Serving } from './support/galley.js';
import { createProject, officeOf, send } from './support/http.js';

const SLOW = 180_000;
const lockBody = { kind: 'agent', label: 'Across processes' };

interface Item {
  id: string;
  kind: string;
  data: Record<string, unknown>;
}

const palette = (title: string) => ({
  request_key: randomUUID(),
  kind: 'data',
  title,
  files: [
    {
      path: 'palette.json',
      json: { colors: [{ name: 'Ink', value: '#112233' }] },
      schema: 'svc://schemas/palette/1',
    },
  ],
});

/** Whether the events' numbers rise one after another. */
const rising = (items: Item[]) => items.every((item, i) => i === 0 || +item.id > +items[i - 1]!.id);

describeStores('events across galley serve processes', (t) => {
  let a: Serving;
  let b: Serving;
  let token: string;

  beforeAll(async () => {
    const { data, env } = storeOf(t);
    // Each process compiles the sources as it starts (tsx): a loaded host takes its time.
    const start = { env: { ...env, GALLEY_LOG_LEVEL: 'info' }, startTimeoutMs: SLOW / 2 };
    a = await serveProcess(data, { ...start, args: ['--workers', '1'] });
    b = await serveProcess(data, { ...start, args: ['--workers', '2'] });
    token = officeOf(a.output()).token;
  }, SLOW);
  afterAll(async () => {
    for (const serving of [a, b]) if (serving?.child.exitCode === null) await serving.stop();
  });

  const lock = async (base: string, project: string, method: 'PUT' | 'DELETE', id?: string) => {
    const path = `/api/v1/projects/${project}/lock`;
    const headers: Record<string, string> = id ? { 'x-request-id': id } : {};
    const answer = await send(base, method, path, {
      token,
      headers,
      ...(method === 'PUT' ? { json: lockBody } : {}),
    });
    expect([method, answer.status]).toEqual([method, method === 'PUT' ? 200 : 204]);
  };

  it(
    'sends a v1 stream on B what was written through A, in order, and resumes it on B',
    { timeout: SLOW },
    async () => {
      const project = await createProject(a.url, token);
      const onB = openEvents(b.url, token, { project });
      await onB.opened;
      await lock(a.url, project, 'PUT');
      await lock(a.url, project, 'DELETE');
      await lock(a.url, project, 'PUT');
      const live = [(await onB.next()) as Item, (await onB.next()) as Item];
      live.push(...((await onB.until('lock.taken')) as Item[]));
      expect(live.map((item) => item.kind)).toEqual(['lock.taken', 'lock.released', 'lock.taken']);
      expect(live.map((item) => item.data.project_id)).toEqual([project, project, project]);
      expect(rising(live)).toBe(true);
      onB.close(); // dropped

      // Meanwhile, through A: the lock let go and the project renamed.
      await lock(a.url, project, 'DELETE');
      const renamed = await send(a.url, 'PATCH', `/api/v1/projects/${project}`, {
        token,
        json: { title: 'Renamed through A' },
      });
      expect(renamed.status).toBe(200);
      const resumed = openEvents(b.url, token, { project, lastEventId: live[2]!.id });
      const missed = [(await resumed.next()) as Item, (await resumed.next()) as Item];
      expect(missed).toMatchObject([
        { kind: 'lock.released', data: { project_id: project } },
        { kind: 'project.saved', data: { project_id: project, kind: 'title' } },
      ]);
      expect(rising([live[2]!, ...missed])).toBe(true);
      resumed.close();
    },
  );

  it(
    'sends a v2 stream on B the asset events written through A, and resumes it on B',
    { timeout: SLOW },
    async () => {
      const onB = openEvents(b.url, token, { api: 'v2' });
      await onB.opened;
      const first = await send<{ asset: { id: string } }>(a.url, 'POST', '/api/v2/assets', {
        token,
        json: palette('Palette A'),
      });
      expect(first.status).toBe(201);
      const revised = (await onB.next()) as Item;
      expect(revised).toMatchObject({
        kind: 'asset.revised',
        data: { asset_id: first.body.asset.id, revision: 1 },
      });
      onB.close();

      const second = await send<{ asset: { id: string } }>(a.url, 'POST', '/api/v2/assets', {
        token,
        json: palette('Palette B'),
      });
      expect(second.status).toBe(201);
      const resumed = openEvents(b.url, token, { api: 'v2', lastEventId: revised.id });
      const missed = (await resumed.next()) as Item;
      expect(missed).toMatchObject({
        kind: 'asset.revised',
        data: { asset_id: second.body.asset.id, revision: 1 },
      });
      expect(+missed.id).toBeGreaterThan(+revised.id);
      resumed.close();
    },
  );

  it(
    'sends one stream of the cluster what writes through both its workers made',
    { timeout: SLOW },
    async () => {
      const project = await createProject(b.url, token);
      const onB = openEvents(b.url, token, { project });
      await onB.opened;
      const prefix = `events-${randomUUID()}`;
      const items: Item[] = [];
      // Each write on a new connection: the cluster's primary hands them to its workers in turn.
      // A request's event is stored just after its answer, so each is awaited before the next
      // write (two writes through two processes could be numbered either way).
      for (let i = 0; i < 6; i++) {
        await lock(b.url, project, i % 2 === 0 ? 'PUT' : 'DELETE', `${prefix}-${i}`);
        items.push((await onB.next()) as Item);
      }
      expect(items.map((item) => item.kind)).toEqual(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? 'lock.taken' : 'lock.released')),
      );
      expect(rising(items)).toBe(true);
      expect(pidsOf(b.output(), prefix).size).toBe(2);
      onB.close();
    },
  );
});
