// Webhooks over real HTTP on loopback (the operator setting that allows private addresses is on
// for the receiving tests only): signed deliveries checked by an independent implementation
// (`standardwebhooks`), tries again after 500s and timeouts, listed answers, replays, and URLs
// refused when they resolve to loopback, private, link-local or metadata addresses.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { allowedAddress } from '../../src/webhooks/address-guard.js';
import type { Resolve } from '../../src/webhooks/address-guard.js';
import { startTestServer } from '../platform/harness.js';
import type { TestServer } from '../v1/helpers.js';
import { caller, createProject } from '../v1/helpers.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: answers each request as `plan` says (a status, or `hang`). */
async function receiver(plan: Array<number | 'hang'>) {
  const received: Received[] = [];
  const waiting: Array<() => void> = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      waiting.splice(0).forEach((wake) => wake());
      const step = plan.shift() ?? 200;
      if (step === 'hang') return; // never answered: the delivery times out
      res.writeHead(step, { 'content-type': 'text/plain' }).end(step === 200 ? 'thanks' : 'broken');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** Connections made to it, answered or not. */
    connections: () => connections,
    /** Waits until `count` requests came, calling `tick` meanwhile (to move the clock). */
    async until(count: number, tick = () => undefined as void): Promise<Received[]> {
      const deadline = Date.now() + 10_000;
      while (received.length < count) {
        tick();
        if (Date.now() > deadline)
          throw new Error(`${received.length} of ${count} deliveries came`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_response: string | null;
}

/** A project of `s` with a webhook to `url` for `kinds`, registered by its owner. */
async function registered(s: TestServer, url: string, kinds = ['lock.taken']) {
  const { id } = await createProject(s, s.token);
  const ada = caller(s, s.token, 'hooks');
  const made = await ada<{ id: string; secret: string }>('POST', `/projects/${id}/webhooks`, {
    json: { url, kinds },
  });
  expect(made.status).toBe(201);
  return { project: id, ada, hook: made.body };
}

const deliveries = async (ada: ReturnType<typeof caller>, project: string, hook: string) =>
  (await ada<{ deliveries: Delivery[] }>('GET', `/projects/${project}/webhooks/${hook}/deliveries`))
    .body.deliveries;

describe('webhooks', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      rateLimitPerMinute: 1_000_000,
      webhooksAllowPrivate: true,
      webhookRetrySeconds: [0.2, 0.2],
      webhookTimeoutSeconds: 0.5,
    });
  });
  afterAll(() => s?.close());

  it('signs a delivery as Standard Webhooks says (checked by the standardwebhooks package)', async () => {
    const r = await receiver([200]);
    const { project, ada, hook } = await registered(s, r.url);
    expect(hook.secret).toMatch(/^whsec_/);
    await ada('PUT', `/projects/${project}/lock`, { json: { kind: 'agent', label: 'Hooked' } });
    const [got] = await r.until(1);
    const verified = new Webhook(hook.secret).verify(
      got!.body,
      got!.headers as Record<string, string>,
    );
    expect(verified).toMatchObject({ kind: 'lock.taken', data: { project_id: project } });
    expect(() =>
      new Webhook(
        `whsec_${Buffer.from('another key, 32 bytes long!!!!!').toString('base64')}`,
      ).verify(got!.body, got!.headers as Record<string, string>),
    ).toThrow();
    const list = await deliveries(ada, project, hook.id);
    expect(list[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status: 200,
      last_response: 'thanks',
    });
    await r.close();
  });

  it('tries again after a 500 and after a timeout, then gives up; a replay sends it again', async () => {
    const r = await receiver([500, 'hang', 500]);
    const { project, ada, hook } = await registered(s, r.url);
    await ada('PUT', `/projects/${project}/lock`, { json: { kind: 'agent', label: 'Hooked' } });
    // The pauses between tries are counted on the service's clock: it moves a second a step.
    const tries = await r.until(3, () => s.clock.advance(1000));
    expect(new Set(tries.map((t) => t.headers['webhook-id'])).size).toBe(1);
    let list: Delivery[] = [];
    for (let i = 0; i < 50; i++) {
      s.clock.advance(1000);
      list = await deliveries(ada, project, hook.id);
      if (list[0]?.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(list[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_status: 500,
      last_response: 'broken',
    });

    const replay = await ada<Delivery>(
      'POST',
      `/projects/${project}/webhooks/${hook.id}/deliveries/${list[0]!.id}/replay`,
    );
    expect(replay.status).toBe(202);
    const again = await r.until(4);
    expect(again[3]!.headers['webhook-id']).toBe(tries[0]!.headers['webhook-id']);
    new Webhook(hook.secret).verify(again[3]!.body, again[3]!.headers as Record<string, string>);
    await r.close();
  });

  it('sends an account’s asset events to its v2 webhook', async () => {
    const r = await receiver([200]);
    const hooks = await fetch(`${s.url}/api/v2/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: r.url, kinds: ['asset.revised'] }),
    });
    expect(hooks.status).toBe(201);
    const { secret } = (await hooks.json()) as { secret: string };
    const created = await fetch(`${s.url}/api/v2/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
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
      }),
    });
    const { asset } = (await created.json()) as { asset: { id: string } };
    const [got] = await r.until(1);
    expect(
      new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>),
    ).toMatchObject({
      kind: 'asset.revised',
      data: { asset_id: asset.id, revision: 1 },
    });
    await r.close();
  });
});

describe('webhook URLs', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitPerMinute: 1_000_000 });
  });
  afterAll(() => s?.close());

  it('refuses loopback, private, link-local and metadata addresses', async () => {
    const { id } = await createProject(s, s.token);
    const ada = caller(s, s.token, 'hooks');
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const refused = await ada('POST', `/projects/${id}/webhooks`, {
        json: { url, kinds: ['lock.taken'] },
      });
      expect(refused.status, url).toBe(422);
      expect(refused.body).toMatchObject({
        code: 'webhook_url_refused',
        errors: { url: [expect.any(String)] },
      });
    }
    const unknownKind = await ada('POST', `/projects/${id}/webhooks`, {
      json: { url: 'https://example.org/hook', kinds: ['asset.revised'] },
    });
    expect(unknownKind.status).toBe(422);
  });

  it('refuses metadata addresses even where private ones are allowed', () => {
    expect(allowedAddress('169.254.169.254', true)).toBe(false);
    expect(allowedAddress('::ffff:169.254.169.254', true)).toBe(false);
    expect(allowedAddress('127.0.0.1', true)).toBe(true);
    expect(allowedAddress('127.0.0.1', false)).toBe(false);
    expect(allowedAddress('93.184.216.34', false)).toBe(true);
  });

  it('lets only an owner register, and never shows another project’s webhooks', async () => {
    const bob = await s.addAccount('bob-hooks@example.org', 'Bob');
    const { id } = await createProject(s, s.token);
    const ada = caller(s, s.token, 'hooks');
    await ada('PUT', `/projects/${id}/members`, {
      json: { email: 'bob-hooks@example.org', role: 'editor' },
    });
    const asBob = caller(s, bob.token, 'bob');
    const refused = await asBob('POST', `/projects/${id}/webhooks`, {
      json: { url: 'https://example.org/hook', kinds: ['lock.taken'] },
    });
    expect(refused.status).toBe(403);
    const { id: other } = await createProject(s, bob.token);
    expect((await ada('GET', `/projects/${other}/webhooks`)).status).toBe(404);
  });
});

describe('a webhook name that resolves elsewhere at delivery (DNS rebinding)', () => {
  let s: TestServer;
  /** What the name server answers now, name by name. */
  const answers = new Map<string, string>();
  const asked: string[] = [];
  const resolve: Resolve = (hostname) => {
    asked.push(hostname);
    const address = answers.get(hostname);
    if (!address) return Promise.reject(Object.assign(new Error(hostname), { code: 'ENOTFOUND' }));
    return Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);
  };
  beforeAll(async () => {
    // Private addresses are not allowed here: the setting tests use elsewhere is off.
    s = await startTestServer(
      { rateLimitPerMinute: 1_000_000, webhookRetrySeconds: [0.2], webhookTimeoutSeconds: 0.5 },
      { resolve },
    );
  });
  afterAll(() => s?.close());

  it('refuses at connect a name that resolved to a public address when registered, now loopback', async () => {
    const r = await receiver([200]);
    const name = 'hooks.rebinding.test';
    answers.set(name, '93.184.216.34'); // public: the registration is accepted
    const { project, ada, hook } = await registered(s, `http://${name}:${r.port}/hook`);
    expect(asked).toEqual([name]);
    answers.set(name, '127.0.0.1'); // the name now leads to the receiver on loopback
    await ada('PUT', `/projects/${project}/lock`, { json: { kind: 'agent', label: 'Hooked' } });
    let list: Delivery[] = [];
    for (let i = 0; i < 100 && list[0]?.status !== 'failed'; i++) {
      s.clock.advance(1000); // past the pause before the second try
      await new Promise((resolve) => setTimeout(resolve, 100));
      list = await deliveries(ada, project, hook.id);
    }
    // Both tries looked the name up again, were refused, and never connected.
    expect(list[0]).toMatchObject({ status: 'failed', attempts: 2, last_status: null });
    expect(list[0]!.last_response).toBe(
      `${name} resolves to 127.0.0.1, which webhooks may not reach`,
    );
    expect(asked.filter((host) => host === name)).toHaveLength(3);
    expect(r.connections()).toBe(0);
    expect(r.received).toEqual([]);
    await r.close();
  });
});
