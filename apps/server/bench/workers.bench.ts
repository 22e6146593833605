// Benchmark of `galley serve` on every core, side by side in one run, autocannon on loopback at
// 64 connections (the load generator on the same machine, one core of its own at most):
//   GET /api/v1/projects/{id}              default workers  vs  GALLEY_WORKERS=1   (goal ≥ 1.4×)
//   POST /pages/{page}/operations          default workers  vs  GALLEY_WORKERS=1   (goal ≥ 1.4×)
//   p99 at 64 connections, default workers                  ≤ 3 × its p50
// Both services are real `galley serve` processes on SQLite, each on its own data folder. Every
// connection of the operations' load drives a draft of its own (64 projects, one lock each), so
// no two connections race for one draft token (each chain is held by one connection's client). The measures are interleaved in ROUNDS rounds;
// each figure is the median of its rounds. Writes <repo>/.bench/workers.json.
// Run: cd apps/server && npx tsx --conditions=@galley/source bench/workers.bench.ts
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { json, onePageZip } from './bench-http.js';
import { ceilingRow, cpuKnown, meterCpu } from './cpu-cost.js';
import type { CpuPerRequest } from './cpu-cost.js';
import { median } from './bench-child.js';

const CONNECTIONS = 64;
const ROUNDS = 3;
const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = 5;
const START_TIMEOUT_MS = 180_000;

const here = new URL('.', import.meta.url).pathname;
const repo = join(here, '../../..');

interface Service {
  name: string;
  url: string;
  token: string;
  child: ChildProcess;
  dataDir: string;
}

/** `galley serve` from the sources with `workers` processes, once it says where it is. */
function serve(name: string, workers: number): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'galley-bench-workers-'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=@galley/source',
      join(repo, 'apps/cli/src/bin.ts'),
      'serve',
      '--port',
      '0',
      '--data',
      dataDir,
      '--workers',
      String(workers),
    ],
    {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, GALLEY_LOG_LEVEL: 'warn', GALLEY_RATE_LIMIT: '1000000000' },
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${output}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Galley is at (http:\/\/\S+) \(data/.exec(output)?.[1];
      const token = /API token: +(glly_\S+)/.exec(output)?.[1];
      if (!url || !token) return;
      clearTimeout(timer);
      child.stdout.resume();
      resolve({ name, url, token, child, dataDir });
    });
  });
}

/** A small page of sections (about 12 KB). */
function smallPage(): string {
  const sections = Array.from(
    { length: 40 },
    (_, i) =>
      `<section id="s${i}"><h2 id="h${i}">Section ${i}</h2><p>Text of section ${i}, long enough to be a paragraph of a page that people edit.</p></section>`,
  ).join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>Bench</title></head><body><main id="main">\n${sections}\n</main></body></html>\n`;
}

interface Chain {
  project: string;
  page: string;
  client: string;
  token: string;
  /** The next operation: 0 inserts the paragraph, 1 removes it. */
  step: number;
}

/** CONNECTIONS projects, each locked by a client of its own with its draft open. */
async function prepare(service: Service): Promise<Chain[]> {
  const api = `${service.url}/api/v1`;
  const zip = onePageZip(smallPage(), 'Bench');
  return Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      const client = `bench-${i}`;
      const headers = { authorization: `Bearer ${service.token}`, 'x-editor-client': client };
      const form = new FormData();
      form.set('zip', new Blob([zip]), 'bench.zip');
      const project = await json<{ id: string }>(`${api}/projects/folder`, {
        method: 'POST',
        headers,
        body: form,
        expect: 201,
      });
      const pages = await json<{ pages: Array<{ id: string }> }>(
        `${api}/projects/${project.id}/pages`,
        { headers, expect: 200 },
      );
      const chain = { project: project.id, page: pages.pages[0]!.id, client, token: '', step: 0 };
      await lockAndOpen(service, chain);
      return chain;
    }),
  );
}

/** Takes (or renews) the chain's lock and reads its draft's newest token. */
async function lockAndOpen(service: Service, chain: Chain): Promise<void> {
  const api = `${service.url}/api/v1`;
  const headers = {
    authorization: `Bearer ${service.token}`,
    'x-editor-client': chain.client,
    'content-type': 'application/json',
  };
  await json(`${api}/projects/${chain.project}/lock`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ kind: 'agent', label: 'bench' }),
    expect: 200,
  });
  const draft = await json<{ draft_token: string; html: string }>(
    `${api}/pages/${chain.page}/draft`,
    { headers, expect: 200 },
  );
  chain.token = draft.draft_token;
  // An answer the load generator never read may have applied one more step.
  chain.step = draft.html.includes('id="bench-p"') ? 1 : 0;
}

/** Insert a paragraph, then remove it again. */
function operation(step: number): object {
  return step % 2 === 0
    ? { kind: 'insert', parent: '#s10', html: '<p id="bench-p">inserted</p>', before: '#h10' }
    : { kind: 'remove', target: '#bench-p' };
}

/** An insert and a remove, their answers checked, before anything is timed. */
async function checkOperations(service: Service, chain: Chain): Promise<void> {
  for (const step of [0, 1]) {
    const answer = await json<{ draft_token: string; result: { ids: string[] } }>(
      `${service.url}/api/v1/pages/${chain.page}/operations`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.token}`,
          'x-editor-client': chain.client,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ draft_token: chain.token, operation: operation(step) }),
        expect: 200,
      },
    );
    const ids = JSON.stringify(answer.result.ids);
    if (ids !== (step === 0 ? '["bench-p"]' : '[]')) throw new Error(`ids ${ids}`);
    chain.token = answer.draft_token;
  }
  chain.step = 0;
}

type Request = autocannon.Request;
/** What each connection sends: the same requests for all, or requests set up per connection. */
type Load = Pick<autocannon.Options, 'requests' | 'setupClient'>;

interface Measure {
  p50: number;
  p99: number;
  rps: number;
}

/** CONNECTIONS connections for `seconds`. */
async function load(service: Service, seconds: number, requests: Load): Promise<Measure> {
  const times: number[] = [];
  const refused: number[] = [];
  const instance = autocannon({
    url: service.url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    ...requests,
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) times.push(ms);
    else refused.push(status);
  });
  const result = await instance;
  if (refused.length + result.errors + result.timeouts > 0) {
    const what = `${refused.length} refused (${refused.join(' ')}), ${result.errors} errors, ${result.timeouts} timeouts`;
    throw new Error(`${service.name}: ${what}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), rps: times.length / seconds };
}

function getProject(service: Service, chains: Chain[]): Load {
  const headers = { authorization: `Bearer ${service.token}` };
  return { requests: [{ method: 'GET', path: `/api/v1/projects/${chains[0]!.project}`, headers }] };
}

/**
 * Each connection drives one chain for the whole run, held by its client (the same across
 * reconnects): autocannon's per-request context is reset before every request of a one-request
 * list, so a chain kept there passed from connection to connection, and two could drive one.
 */
function postOperations(service: Service, chains: Chain[]): Load {
  let next = 0;
  return {
    setupClient: (client) => {
      if (next >= chains.length) throw new Error(`more than ${chains.length} connections`);
      client.setRequests(chainRequests(service, chains[next++]!));
    },
  };
}

function chainRequests(service: Service, chain: Chain): Request[] {
  return [
    {
      method: 'POST',
      setupRequest: (request) => {
        return {
          ...request,
          path: `/api/v1/pages/${chain.page}/operations`,
          headers: {
            authorization: `Bearer ${service.token}`,
            'x-editor-client': chain.client,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ draft_token: chain.token, operation: operation(chain.step) }),
        };
      },
      onResponse: (status, body) => {
        if (status !== 200) {
          console.error(`operation answered ${status}: ${body.slice(0, 300)}`);
          return; // counted as refused by `load`
        }
        chain.token = (JSON.parse(body) as { draft_token: string }).draft_token;
        chain.step = 1 - chain.step;
      },
    },
  ];
}

const cores = availableParallelism();
const services = [await serve(`${cores} workers (default)`, cores), await serve('1 worker', 1)];
try {
  const chainsOf = new Map<Service, Chain[]>();
  for (const service of services) {
    const chains = await prepare(service);
    await checkOperations(service, chains[0]!);
    chainsOf.set(service, chains);
  }
  const measures = ['GET project', 'POST operations'] as const;
  const requestsOf = (measure: (typeof measures)[number], service: Service) =>
    (measure === 'GET project' ? getProject : postOperations)(service, chainsOf.get(service)!);
  /** After a run of operations the last answers were never read: their tokens are stale. */
  const resync = (service: Service) =>
    Promise.all(chainsOf.get(service)!.map((chain) => lockAndOpen(service, chain)));
  const rounds = new Map<string, Measure[]>();
  /** What the one worker's requests cost in CPU, by measure. */
  const costs = new Map<string, CpuPerRequest[]>();
  for (let round = -1; round < ROUNDS; round++) {
    for (const measure of measures) {
      for (const service of services) {
        const seconds = round < 0 ? WARMUP_SECONDS : MEASURE_SECONDS;
        const meter = service === services[1] && cpuKnown ? meterCpu(service.child.pid!) : null;
        const measured = await load(service, seconds, requestsOf(measure, service));
        if (meter && round >= 0)
          costs.set(measure, [...(costs.get(measure) ?? []), meter.end(measured.rps * seconds)]);
        if (measure === 'POST operations') await resync(service);
        if (round < 0) continue;
        const key = `${measure} ${service.name}`;
        rounds.set(key, [...(rounds.get(key) ?? []), measured]);
      }
    }
  }
  const summary = (key: string): Measure => {
    const all = rounds.get(key)!;
    const m = {
      p50: median(all.map((r) => r.p50)),
      p99: median(all.map((r) => r.p99)),
      rps: median(all.map((r) => r.rps)),
    };
    console.log(`${key}: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms`);
    return m;
  };
  const rows = measures.flatMap((measure) => {
    const many = summary(`${measure} ${services[0]!.name}`);
    const one = summary(`${measure} ${services[1]!.name}`);
    const ratio = many.rps / one.rps;
    return [
      {
        name: `${measure}, ${CONNECTIONS} connections: ${services[0]!.name} / 1 worker (req/s)`,
        value: `${ratio.toFixed(2)}× (${Math.round(many.rps)} vs ${Math.round(one.rps)} req/s)`,
        goal: '≥ 1.4×',
        ok: ratio >= 1.4,
      },
      {
        name: `${measure}, ${CONNECTIONS} connections, ${services[0]!.name}: p99 / p50`,
        value: `${(many.p99 / many.p50).toFixed(2)}× (p50 ${many.p50} ms, p99 ${many.p99} ms)`,
        goal: '≤ 3×',
        ok: many.p99 <= 3 * many.p50,
      },
      ...(cpuKnown ? [ceilingRow(measure, costs.get(measure)!, one.rps)] : []),
    ];
  });
  const result = {
    title: `Every core: galley serve with ${cores} workers vs 1, at ${CONNECTIONS} connections`,
    rows,
    notes: `${cores} cores. Real \`galley serve\` processes (from the sources) on SQLite, each on its own data folder, request logs at warn, no rate limit reached; autocannon in the benchmark's own process on the same machine, so the load generator takes a share of the same cores. ${ROUNDS} interleaved rounds of ${MEASURE_SECONDS} s after ${WARMUP_SECONDS} s of warm-up; medians of the rounds. GET reads one project; operations alternate an insert and a remove, each connection on a draft of its own (${CONNECTIONS} projects, each locked by its own client).`,
  };
  mkdirSync(join(repo, '.bench'), { recursive: true });
  writeFileSync(join(repo, '.bench', 'workers.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.rows, null, 2));
} finally {
  for (const service of services) service.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 3_000));
  for (const service of services) {
    rmSync(service.dataDir, { recursive: true, force: true, maxRetries: 10 });
  }
}
