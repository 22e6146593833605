// `galley serve` as several processes: a cluster of workers (one port) and a second `galley serve`
// on the same database, real processes over real HTTP on loopback, on a SQLite file and on
// PostgreSQL. The rules hold across them: one lock holder, one effect per request_key, a write
// seen by the next request anywhere, a revoked token refused everywhere, one rate-limit budget,
// metrics summed over the workers; a worker killed under load loses nothing acknowledged and is
// replaced; a stop lets open requests finish.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../packages/store/test/stores.js';
import { pidsOf, serveProcess, storeOf } from './support/galley.js';
import type { Serving } from './support/galley.js';
import { createProject, issueToken, officeOf, send } from './support/http.js';

const WORKERS = 2;
const RATE_LIMIT = 300;
const METRICS_TOKEN = 'metrics-secret-for-the-process-tests-0123456789';
const SLOW = 180_000;

/** The worker processes of the cluster (children of its primary that run node). */
function workerPids(primary: number): number[] {
  const out = execFileSync('ps', ['--ppid', String(primary), '-o', 'pid=,comm=']).toString();
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, comm]) => comm === 'node')
    .map(([pid]) => Number(pid));
}

const production = (title: string, requestKey = randomUUID()) => ({
  request_key: requestKey,
  kind: 'production',
  title,
  medium: { id: 'banner', version: 1 },
  media_contract: { version: '1.0' },
  files: [],
});

describeStores('galley serve as several processes', (t) => {
  let cluster: Serving;
  let single: Serving;
  let office: { password: string; token: string };
  /** The cluster's and the single process's base URLs, alternately. */
  let both: (i: number) => string;

  beforeAll(async () => {
    const { data, env } = storeOf(t);
    const common = {
      ...env,
      GALLEY_RATE_LIMIT: String(RATE_LIMIT),
      GALLEY_LOG_LEVEL: 'info',
      GALLEY_TRUST_PROXY: 'loopback',
      GALLEY_METRICS_TOKEN: METRICS_TOKEN,
    };
    // Each process compiles the sources as it starts (tsx): a loaded host takes its time.
    const start = { env: common, startTimeoutMs: SLOW / 2 };
    cluster = await serveProcess(data, { ...start, args: ['--workers', String(WORKERS)] });
    single = await serveProcess(data, { ...start, args: ['--workers', '1'] });
    office = officeOf(cluster.output());
    both = (i) => (i % 2 === 0 ? cluster.url : single.url);
  }, SLOW);
  afterAll(async () => {
    for (const serving of [cluster, single]) {
      if (serving?.child.exitCode === null) await serving.stop();
    }
  });

  it('makes the office account once and prints it once', () => {
    expect(cluster.output().match(/First start/g)).toHaveLength(1);
    expect(single.output()).not.toMatch(/First start|API token/);
    expect(workerPids(cluster.child.pid!)).toHaveLength(WORKERS);
  });

  it('gives the lock to one of many clients asking at once', { timeout: SLOW }, async () => {
    const { token } = await issueToken(cluster.url, office.password);
    const project = await createProject(cluster.url, token);
    const asks = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        send(both(i), 'PUT', `/api/v1/projects/${project}/lock`, {
          token,
          json: { kind: 'agent', label: `Racer ${i}` },
          headers: { 'x-editor-client': `racer-${i}` },
        }),
      ),
    );
    expect(asks.map((a) => a.status).sort()).toEqual([200, ...Array<number>(7).fill(423)]);
  });

  it(
    'makes one asset of one request_key sent to every process at once',
    { timeout: SLOW },
    async () => {
      const { token } = await issueToken(cluster.url, office.password);
      const title = `Once ${randomUUID()}`;
      const body = production(title);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          send<{ asset?: { id: string }; code?: string }>(both(i), 'POST', '/api/v2/assets', {
            token,
            json: body,
          }),
        ),
      );
      const made = answers.filter((a) => a.status === 201);
      expect(made.length).toBeGreaterThanOrEqual(1);
      expect(new Set(made.map((a) => a.body.asset!.id)).size).toBe(1);
      for (const other of answers.filter((a) => a.status !== 201)) {
        expect([other.status, other.body.code]).toEqual([409, 'request_in_progress']);
      }
      const listed = await send<{ assets: unknown[] }>(
        single.url,
        'GET',
        `/api/v2/assets?q=${encodeURIComponent(title)}`,
        { token },
      );
      expect(listed.body.assets).toHaveLength(1);
    },
  );

  it(
    'serves a write made in one process to the next request in any other',
    { timeout: SLOW },
    async () => {
      const { token } = await issueToken(cluster.url, office.password);
      const project = await createProject(cluster.url, token);
      const prefix = `seen-${randomUUID()}`;
      for (let round = 0; round < 6; round++) {
        const title = `Title ${round}`;
        const renamed = await send(both(round), 'PATCH', `/api/v1/projects/${project}`, {
          token,
          json: { title },
        });
        expect(renamed.status).toBe(200);
        for (let read = 0; read < 3; read++) {
          const seen = await send<{ title: string }>(
            both(round + read + 1),
            'GET',
            `/api/v1/projects/${project}`,
            { token, headers: { 'x-request-id': `${prefix}-${round}-${read}` } },
          );
          expect([round, read, seen.body.title]).toEqual([round, read, title]);
        }
      }
      // The reads were answered by more than one worker of the cluster, and by the other process.
      const output = cluster.output();
      expect(pidsOf(output, prefix).size).toBeGreaterThan(1);
      expect(pidsOf(single.output(), prefix).size).toBe(1);
    },
  );

  it('refuses a token revoked in one process in every other', { timeout: SLOW }, async () => {
    const { token, revoke } = await issueToken(cluster.url, office.password);
    // Used everywhere first, so every process may have it remembered.
    for (let i = 0; i < 8; i++) {
      expect((await send(both(i), 'GET', '/api/v1/projects', { token })).status).toBe(200);
    }
    expect(await revoke(single.url)).toBe(204);
    for (let i = 0; i < 8; i++) {
      expect((await send(both(i), 'GET', '/api/v1/projects', { token })).status).toBe(401);
    }
  });

  it('counts one rate-limit budget for all workers', { timeout: SLOW }, async () => {
    const { token } = await issueToken(cluster.url, office.password);
    const prefix = `budget-${randomUUID()}`;
    // On PostgreSQL the budget is the service's across hosts: the other process shares it too.
    const target = (i: number) => (t.kind === 'postgres' ? both(i) : cluster.url);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 12; i++) {
      const answer = await send(target(i), 'GET', '/api/v1/projects', {
        token,
        headers: { 'x-request-id': `${prefix}-${i}` },
      });
      statuses.push(answer.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.slice(RATE_LIMIT)).toEqual(Array<number>(12).fill(429));
    expect(pidsOf(cluster.output(), prefix).size).toBeGreaterThan(1);
  });

  it('counts requests sent at once as one budget too', { timeout: SLOW }, async () => {
    // A worker sends a key's concurrent requests to the primary as one count (SQLite), a process
    // writes them as one row update (PostgreSQL): each must still be given its own place.
    const { token } = await issueToken(cluster.url, office.password);
    const target = (i: number) => (t.kind === 'postgres' ? both(i) : cluster.url);
    const answers = await Promise.all(
      Array.from({ length: RATE_LIMIT + 12 }, (_, i) =>
        send(target(i), 'GET', '/api/v1/projects', { token }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
    const remaining = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.headers['ratelimit-remaining']))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: RATE_LIMIT }, (_, i) => i));
  });

  it(
    'answers GET /metrics for all workers, to loopback and operators only',
    { timeout: SLOW },
    async () => {
      const prefix = `metrics-${randomUUID()}`;
      const before = await send(cluster.url, 'GET', '/metrics');
      const healthz = (text: string) =>
        Number(
          /galley_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} (\d+)/.exec(
            text,
          )?.[1] ?? 0,
        );
      for (let i = 0; i < 9; i++) {
        await send(cluster.url, 'GET', '/healthz', {
          headers: { 'x-request-id': `${prefix}-${i}` },
        });
      }
      expect(pidsOf(cluster.output(), prefix).size).toBeGreaterThan(1);
      const after = await send(cluster.url, 'GET', '/metrics');
      expect(after.status).toBe(200);
      expect(after.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(healthz(after.text) - healthz(before.text)).toBe(9);
      for (const name of [
        `galley_workers ${WORKERS}`,
        'galley_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/projects"',
        'nodejs_eventloop_lag_p99_seconds',
        'galley_draft_cache_bytes',
        'galley_db_query_duration_seconds_count{outcome="ok"}',
        'galley_rate_limit_refusals_total',
        'galley_worker_restarts_total',
      ]) {
        expect(after.text).toContain(name);
      }
      // Through a proxy on loopback (GALLEY_TRUST_PROXY=loopback), the client's own address counts.
      const elsewhere = { 'x-forwarded-for': '203.0.113.9' };
      const { token } = await issueToken(cluster.url, office.password);
      expect((await send(cluster.url, 'GET', '/metrics', { headers: elsewhere })).status).toBe(403);
      const anyone = await send(cluster.url, 'GET', '/metrics', {
        headers: { ...elsewhere, authorization: 'Bearer glly_not-a-real-token' },
      });
      expect([anyone.status, anyone.body.code]).toEqual([403, 'forbidden']);
      for (const authorization of [`Bearer ${METRICS_TOKEN}`, `Bearer ${token}`]) {
        const allowed = await send(cluster.url, 'GET', '/metrics', {
          headers: { ...elsewhere, authorization },
        });
        expect(allowed.status).toBe(200);
      }
    },
  );

  it(
    'loses nothing acknowledged when a worker is killed under load, and replaces it',
    { timeout: 2 * SLOW },
    async () => {
      const { token } = await issueToken(cluster.url, office.password);
      const before = workerPids(cluster.child.pid!);
      const victim = before[0]!;
      const acknowledged: string[] = [];
      let killed = false;
      /**
       * One write, sent again with its request_key until it is answered: a request cut by the kill
       * (no answer), then 409 request_in_progress while its lease runs out (30 s at most).
       */
      const write = async (n: number) => {
        const body = production(`Load ${n}`);
        const deadline = Date.now() + 90_000;
        while (Date.now() < deadline) {
          const answer = await send<{ asset?: { id: string }; code?: string }>(
            cluster.url,
            'POST',
            '/api/v2/assets',
            { token, json: body },
          ).catch(() => null);
          if (answer?.status === 201 || answer?.status === 200) {
            acknowledged.push(answer.body.asset!.id);
            return;
          }
          if (answer && !['request_in_progress', 'rate_limited'].includes(answer.body.code ?? '')) {
            throw new Error(`write ${n}: ${answer.status} ${answer.text}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        throw new Error(`write ${n} was never answered`);
      };
      const clients = Array.from({ length: 4 }, async (_, c) => {
        for (let n = c; n < 40; n += 4) {
          if (n >= 8 && !killed) {
            killed = true;
            process.kill(victim, 'SIGKILL');
          }
          await write(n);
        }
      });
      await Promise.all(clients);
      expect(killed).toBe(true);
      expect(acknowledged).toHaveLength(40);
      for (const [i, id] of acknowledged.entries()) {
        expect((await send(both(i), 'GET', `/api/v2/assets/${id}`, { token })).status).toBe(200);
      }
      await expect
        .poll(() => workerPids(cluster.child.pid!).length, { timeout: 60_000 })
        .toBe(WORKERS);
      const [replacement] = workerPids(cluster.child.pid!).filter((pid) => !before.includes(pid));
      expect(cluster.output()).toMatch(
        new RegExp(`"worker":${victim}.*"worker died; starting another"`),
      );
      // It serves before the next test kills a worker (the other one might be the only listener).
      await expect
        .poll(() => cluster.output(), { timeout: SLOW / 2 })
        .toMatch(new RegExp(`"worker":${replacement}.*"worker replaced; it listens"`));
    },
  );

  it(
    'stops gracefully: an upload in progress finishes, a worker still starting stops too, then every process exits 0',
    { timeout: SLOW },
    async () => {
      const { token } = await issueToken(cluster.url, office.password);
      const bytes = Buffer.alloc(256 * 1024, 7);
      // One worker dies; the stop comes while its replacement starts (it cannot hear it yet).
      const [victim, survivor] = workerPids(cluster.child.pid!);
      process.kill(victim!, 'SIGKILL');
      await expect
        .poll(() => workerPids(cluster.child.pid!).filter((pid) => pid !== victim), {
          timeout: 30_000,
          interval: 20,
        })
        .toHaveLength(WORKERS);
      const workers = workerPids(cluster.child.pid!);
      expect(workers).toContain(survivor);
      const answer = new Promise<number>((resolve, reject) => {
        const req = request(
          new URL('/api/v2/blobs', cluster.url),
          {
            method: 'POST',
            agent: false,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/octet-stream',
              'content-length': String(bytes.length),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        // Half now; the stop comes; the rest a moment later.
        req.write(bytes.subarray(0, bytes.length / 2));
        setTimeout(() => {
          exit = cluster.stop('SIGTERM');
          setTimeout(() => req.end(bytes.subarray(bytes.length / 2)), 1_000);
        }, 500);
      });
      let exit: Promise<number | null> | undefined;
      expect(await answer).toBe(201);
      expect(await exit).toBe(0);
      for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
      expect(cluster.output()).toContain('"signal":"primary","msg":"stopping"');
    },
  );
});
