// Writes on one asset sent at once, to two servers on one store (each with its own connection, as
// two processes have): every outcome is one that the same requests sent one at a time, in some
// order, would give (decisions §6: the moves allowed; asset-api-v2: 409 for any other).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../../packages/store/test/stores.js';
import type { Call, Reply, Served } from './helpers.js';
import { createImage, key, png, serveTwice, uploadBlob } from './helpers.js';

type State = 'active' | 'archived' | 'deleted';
/** A state move (PUT state) or a permanent deletion (DELETE). */
type Write = State | 'purge';
/** What a write answered: its status, and the state a 409 names. */
interface Outcome {
  status: number;
  state?: State;
}

/** Decisions §6: archive from active; trash from active or archived; restore from either. */
const allowedFrom: Record<State, readonly State[]> = {
  archived: ['active'],
  deleted: ['active', 'archived'],
  active: ['archived', 'deleted'],
};

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Every result of `writes` run one at a time on an asset in `start`: outcomes and final state. */
function serialResults(start: State, writes: readonly Write[]) {
  return permutations(writes.map((write, index) => ({ write, index }))).map((order) => {
    let now: State | 'gone' = start;
    const outcomes: Outcome[] = [];
    for (const { write, index } of order) {
      if (now === 'gone') outcomes[index] = { status: 404 };
      else if (write === 'purge') {
        outcomes[index] = now === 'deleted' ? { status: 204 } : { status: 409, state: now };
        if (now === 'deleted') now = 'gone';
      } else if (allowedFrom[write].includes(now)) {
        outcomes[index] = { status: 200 };
        now = write;
      } else outcomes[index] = { status: 409, state: now };
    }
    return { outcomes, final: now };
  });
}

const outcomeOf = (reply: Reply): Outcome =>
  reply.status === 409
    ? { status: 409, state: (reply.body as { state?: State }).state! }
    : { status: reply.status };

describeStores('concurrent writes on one asset', (t) => {
  let a: Served;
  /** The same account on both servers. */
  let servers: Call[];
  let close: () => Promise<void>;
  beforeAll(async () => {
    const two = await serveTwice(t);
    ({ a, close } = two);
    servers = [a.call, two.onB];
  });
  afterAll(() => close());

  const send = (call: Call, id: string, write: Write) =>
    write === 'purge'
      ? call('DELETE', `/assets/${id}`, { json: { request_key: key() } })
      : call('PUT', `/assets/${id}/state`, { json: { request_key: key(), state: write } });

  /** Sends `writes` at once, `rounds` times, each on a new asset in `start`. */
  async function raceRounds(start: State, writes: readonly Write[], rounds = 8) {
    const possible = serialResults(start, writes);
    for (let round = 0; round < rounds; round++) {
      const asset = await createImage(a.call, png(12, 12, round));
      if (start !== 'active') expect((await send(a.call, asset.id, start)).status).toBe(200);
      const replies = await Promise.all(
        writes.map((write, i) => send(servers[(round + i) % 2]!, asset.id, write)),
      );
      const read = await a.call('GET', `/assets/${asset.id}`);
      const seen = {
        outcomes: replies.map(outcomeOf),
        final: read.status === 404 ? 'gone' : read.body.asset.state,
      };
      expect(possible, `${start} + ${writes.join(', ')}, round ${round}`).toContainEqual(seen);
    }
  }

  it('archive and trash of an active asset: both succeed, or archive names the trash', () =>
    raceRounds('active', ['archived', 'deleted']));

  it('restore and trash of an archived asset: both succeed, in either order', async () => {
    expect(serialResults('archived', ['active', 'deleted']).map((r) => r.outcomes)).toEqual([
      [{ status: 200 }, { status: 200 }],
      [{ status: 200 }, { status: 200 }],
    ]);
    await raceRounds('archived', ['active', 'deleted']);
  });

  it('four moves at once, twice the same', () =>
    raceRounds('active', ['archived', 'deleted', 'archived', 'active']));

  it('permanent deletion and restore of a trashed asset', () =>
    raceRounds('deleted', ['purge', 'active']));

  it('a rename and a permanent deletion of a trashed asset: 200 then 204, or 204 then 404', async () => {
    for (let round = 0; round < 8; round++) {
      const asset = await createImage(a.call, png(14, 14, round));
      expect((await send(a.call, asset.id, 'deleted')).status).toBe(200);
      const [renamed, purged] = await Promise.all([
        servers[round % 2]!('PATCH', `/assets/${asset.id}`, {
          json: { request_key: key(), title: `Renamed ${round}` },
        }),
        send(servers[(round + 1) % 2]!, asset.id, 'purge'),
      ]);
      expect([
        [200, 204],
        [404, 204],
      ]).toContainEqual([renamed.status, purged.status]);
      expect((await a.call('GET', `/assets/${asset.id}`)).status).toBe(404);
    }
  });

  it('a revision and a permanent deletion of a trashed asset: 201 then 204, or 204 then 404', async () => {
    for (let round = 0; round < 8; round++) {
      const asset = await createImage(a.call, png(15, 15, round));
      const blob = await uploadBlob(a.call, png(15, 15, 0x40 + round));
      expect((await send(a.call, asset.id, 'deleted')).status).toBe(200);
      const [revised, purged] = await Promise.all([
        servers[round % 2]!('POST', `/assets/${asset.id}/revisions`, {
          json: {
            request_key: key(),
            base_revision: 1,
            put: [{ path: 'image.png', blob }],
            remove: [],
          },
        }),
        send(servers[(round + 1) % 2]!, asset.id, 'purge'),
      ]);
      expect([
        [201, 204],
        [404, 204],
      ]).toContainEqual([revised.status, purged.status]);
    }
  });

  it('answers 201 to exactly one of several uploads of the same new bytes', async () => {
    for (let round = 0; round < 4; round++) {
      const bytes = png(16, 16, 0x10 + round);
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          servers[i % 2]!('POST', '/blobs', {
            body: bytes,
            headers: { 'content-type': 'application/octet-stream' },
          }),
        ),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    }
  });
});
