// PostgreSQL out of reach while the service runs: requests answer 503 `storage_unavailable` with
// Retry-After (never a 500, never a hang, never the process ending), `/readyz` says so while
// `/healthz` (liveness) does not, and service resumes by itself once the database is back.
// The database is reached through a TCP relay on loopback that the test cuts and restores.
import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '@galley/server';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { describePostgres } from '../../../../packages/store/test/stores.js';
import { logLines, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

/**
 * A relay from a loopback port to `target`. `cut` ends every connection and stops listening;
 * `freeze` holds the server's answers back (a server that stopped answering), `thaw` lets them on.
 */
class Relay {
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<Socket>();
  readonly #answers = new Set<Socket>();
  #server: Server | null = null;
  #frozen = false;
  port = 0;

  constructor(target: { host: string; port: number }) {
    this.#target = target;
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.#target.port, this.#target.host);
      this.#answers.add(upstream);
      if (this.#frozen) upstream.pause();
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.#sockets.add(from);
        from.pipe(to);
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.#sockets.delete(from);
          this.#answers.delete(from);
          to.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  freeze(): void {
    this.#frozen = true;
    for (const socket of this.#answers) socket.pause();
  }

  thaw(): void {
    this.#frozen = false;
    for (const socket of this.#answers) socket.resume();
  }
}

describePostgres('PostgreSQL out of reach', (t) => {
  let relay: Relay;
  let store: Store;
  let s: TestServer;
  const { sink, lines: logged } = logLines();
  const get = (path: string) =>
    fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${s.token}` } });

  beforeAll(async () => {
    const { options } = await t.fresh();
    if (options.kind !== 'postgres') throw new Error('a PostgreSQL target');
    const url = new URL(options.url);
    relay = new Relay({ host: url.hostname, port: Number(url.port) });
    await relay.open();
    url.port = String(relay.port);
    store = await openStore({ ...options, url: url.toString(), queryTimeoutMs: 1_000 });
    s = await startTestServer({}, { store, clock: t.clock }, createLogger('error', sink));
  });
  afterAll(async () => {
    await s.close();
    await store.close();
    await relay.cut();
  });

  it('answers 503 storage_unavailable while it is away, and serves again once it is back', async () => {
    expect((await get('/api/v1/projects')).status).toBe(200);
    expect(await (await get('/readyz')).json()).toEqual({ status: 'ready' });

    await relay.cut();
    for (const path of ['/api/v1/projects', '/api/v2/assets', '/readyz']) {
      const res = await get(path);
      expect([path, res.status, res.headers.get('retry-after')]).toEqual([path, 503, '5']);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toEqual({
        type: 'urn:galley:problem:storage_unavailable',
        title: 'Storage unavailable',
        status: 503,
        detail: 'The service cannot reach or write its storage just now. Try again shortly.',
        code: 'storage_unavailable',
      });
    }
    // Liveness: the process itself is fine, so it is not to be restarted.
    expect(await (await get('/healthz')).json()).toEqual({ status: 'ok' });
    // Each failed request has its own request line; the cause is said once, without a stack.
    const causes = logged.filter((line) => line.msg === 'storage unavailable');
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ level: 50, cause: expect.any(String) as unknown });
    expect(causes[0]).not.toHaveProperty('err');
    expect(logged.filter((line) => line.msg === 'request completed')).toHaveLength(3);
    // The sweeper's next run (a minute on the clock) fails alike, and says so the same way.
    t.clock.advanceSeconds(61);
    while (!logged.some((line) => line.msg === 'sweep failed: storage unavailable')) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(
      logged.find((line) => line.msg === 'sweep failed: storage unavailable'),
    ).not.toHaveProperty('err');

    await relay.open();
    expect((await get('/api/v1/projects')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
  });

  it('answers 503 when the database stops answering, instead of holding the request', async () => {
    expect((await get('/api/v1/projects')).status).toBe(200);
    relay.freeze();
    try {
      const res = await get('/api/v1/projects');
      expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5']);
      expect(await res.json()).toMatchObject({ code: 'storage_unavailable' });
    } finally {
      relay.thaw();
    }
    expect((await get('/api/v1/projects')).status).toBe(200);
  });
});
