// Benchmark of the editing interface, side by side in one run, with autocannon on loopback:
//   POST /pages/{page}/operations on a 200 KB page   vs  GET /api/v1/projects/{id}   (goal ≤ 2×)
//   GET /api/v1/projects/{id}                        vs  a bare Express 5 hello route (goal ≤ 1.5×)
// Each server runs in its own process. One connection at a time, so p50 is the latency of a
// request, not the length of a queue; a chain of operations carries its draft token from answer
// to request. p50 comes from every response's own time; the measures are interleaved in ROUNDS
// rounds and each figure is the median of its rounds, so drift on a busy machine hits all alike.
// Writes <repo>/.bench/v1.json. Run: pnpm --filter @galley/server bench (V1_BENCH_PROFILE=<dir>
// profiles the servers).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { json, onePageZip } from './bench-http.js';
import { median } from './bench-child.js';

const CHAINS = 1;
const ROUNDS = 5;
const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = 5;
const PAGE_BYTES = 200 * 1024;
/** V1_BENCH_PROFILE=<dir>: each server writes a CPU profile there as it stops (--cpu-prof). */
const PROFILE_DIR = process.env.V1_BENCH_PROFILE;

const here = new URL('.', import.meta.url).pathname;
const repo = join(here, '../../..');

interface Target {
  url: string;
  token?: string;
  child: ChildProcess;
}

function startTarget(...args: string[]): Promise<Target> {
  const child = spawn(
    process.execPath,
    [
      ...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []),
      '--import',
      'tsx',
      '--conditions=@galley/source',
      join(here, 'v1-target.ts'),
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`target ${args[0]} exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      resolve({ ...(JSON.parse(line) as { url: string; token?: string }), child });
    });
  });
}

/** A page of about PAGE_BYTES: sections of headings, paragraphs and lists, every id unique. */
function bigPage(): string {
  const words = 'galley page draft outline operation section paragraph list item service'.split(
    ' ',
  );
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < PAGE_BYTES; i++) {
    const text = Array.from({ length: 40 }, (_, j) => words[(i * 7 + j) % words.length]).join(' ');
    const section = `<section id="s${i}" class="block"><h2 id="h${i}">Section ${i}</h2><p class="lead">${text}</p><ul><li>${text.slice(0, 60)}</li><li>${text.slice(60, 120)}</li></ul></section>\n`;
    parts.push(section);
    size += section.length;
  }
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>Big</title></head><body><main id="main">\n${parts.join('')}</main></body></html>\n`;
}

interface Chain {
  project: string;
  page: string;
  client: string;
  token: string;
}

/** CHAINS projects with the big page, each locked by its own client with its draft open. */
async function prepare(galley: Target, html: string): Promise<Chain[]> {
  const auth = { authorization: `Bearer ${galley.token}` };
  const api = `${galley.url}/api/v1`;
  const chains: Chain[] = [];
  for (let i = 0; i < CHAINS; i++) {
    const client = `bench-${i}`;
    const headers = { ...auth, 'x-editor-client': client };
    const form = new FormData();
    form.set('zip', new Blob([onePageZip(html, 'Big')]), 'bench.zip');
    const project = await json<{ id: string }>(`${api}/projects/folder`, {
      method: 'POST',
      headers,
      body: form,
      expect: 201,
    });
    const pages = await json<{ pages: Array<{ id: string; size: number }> }>(
      `${api}/projects/${project.id}/pages`,
      { headers, expect: 200 },
    );
    const page = pages.pages[0]!;
    if (page.size < PAGE_BYTES) throw new Error(`the page has ${page.size} bytes`);
    chains.push({ project: project.id, page: page.id, client, token: '' });
  }
  await lockAndOpen(galley, chains);
  return chains;
}

async function lockAndOpen(galley: Target, chains: Chain[]): Promise<void> {
  const api = `${galley.url}/api/v1`;
  for (const chain of chains) {
    const headers = {
      authorization: `Bearer ${galley.token}`,
      'x-editor-client': chain.client,
      'content-type': 'application/json',
    };
    await json(`${api}/projects/${chain.project}/lock`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ kind: 'agent', label: 'bench' }),
      expect: 200,
    });
    const draft = await json<{ draft_token: string }>(`${api}/pages/${chain.page}/draft`, {
      headers,
      expect: 200,
    });
    chain.token = draft.draft_token;
  }
}

/** One insert and one remove, their answers checked, before anything is timed. */
async function checkOperations(galley: Target, chain: Chain): Promise<void> {
  const headers = {
    authorization: `Bearer ${galley.token}`,
    'x-editor-client': chain.client,
    'content-type': 'application/json',
  };
  const url = `${galley.url}/api/v1/pages/${chain.page}/operations`;
  for (const step of [0, 1]) {
    const answer = await json<{ draft_token: string; result: { ids: string[] } }>(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ draft_token: chain.token, operation: operation(step) }),
      expect: 200,
    });
    const ids = JSON.stringify(answer.result.ids);
    if (ids !== JSON.stringify(step === 0 ? ['bench-p'] : [])) throw new Error(`ids ${ids}`);
    chain.token = answer.draft_token;
  }
}

/** The operations a chain cycles through: insert a paragraph, then remove it again. */
function operation(step: number): object {
  return step % 2 === 0
    ? {
        kind: 'insert',
        parent: '#s10',
        html: '<p id="bench-p" class="note">inserted by the benchmark</p>',
        before: '#h10',
      }
    : { kind: 'remove', target: '#bench-p' };
}

/** One chain of operations: each request carries the token of the previous answer. */
function operations(chain: Chain, auth: Record<string, string>): Request[] {
  let step = 0;
  return [
    {
      method: 'POST',
      path: `/api/v1/pages/${chain.page}/operations`,
      headers: { ...auth, 'x-editor-client': chain.client, 'content-type': 'application/json' },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ draft_token: chain.token, operation: operation(step) }),
      }),
      onResponse: (status, body) => {
        // A refusal is counted as an error by `load` (and fails the benchmark).
        if (status !== 200) return;
        chain.token = (JSON.parse(body) as { draft_token: string }).draft_token;
        step += 1;
      },
    },
  ];
}

interface Measure {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

type Request = autocannon.Request;

/** Runs `requestsOf(i)` on CHAINS single-connection clients at once for `seconds`. */
async function load(
  url: string,
  seconds: number,
  requestsOf: (i: number) => Request[],
): Promise<Measure> {
  const times: number[] = [];
  let errors = 0;
  const runs = Array.from({ length: CHAINS }, (_, i) => {
    const instance = autocannon({
      url,
      connections: 1,
      pipelining: 1,
      duration: seconds,
      requests: requestsOf(i),
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) times.push(ms);
      else errors += 1;
    });
    return instance;
  });
  const results = await Promise.all(runs);
  errors += results.reduce((n, r) => n + r.errors + r.timeouts, 0);
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), rps: times.length / seconds, errors };
}

/** A measured run; `after` runs once it ends (an unread last answer leaves a token stale). */
async function run(
  url: string,
  seconds: number,
  requestsOf: (i: number) => Request[],
  after: () => Promise<void>,
): Promise<Measure> {
  const measure = await load(url, seconds, requestsOf);
  await after();
  if (measure.errors > 0) throw new Error(`${url}: ${measure.errors} requests failed`);
  return measure;
}

/** The median of each figure over the rounds. */
function summary(name: string, rounds: Measure[]): Measure {
  const m = {
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    rps: median(rounds.map((r) => r.rps)),
    errors: 0,
  };
  console.log(
    `${name}: p50 ${m.p50.toFixed(3)} ms, p99 ${m.p99.toFixed(3)} ms, ${Math.round(m.rps)} req/s`,
  );
  return m;
}

const dataDir = mkdtempSync(join(tmpdir(), 'galley-bench-v1-'));
const hello = await startTarget('hello');
const galley = await startTarget('galley', dataDir);
try {
  // Check the outputs before timing them.
  const greeting = await fetch(`${hello.url}/hello`).then((r) => r.text());
  if (greeting !== 'hello') throw new Error(`hello answered ${greeting}`);
  const html = bigPage();
  const chains = await prepare(galley, html);
  const auth = { authorization: `Bearer ${galley.token!}` };
  const read = await json<{ id: string }>(`${galley.url}/api/v1/projects/${chains[0]!.project}`, {
    headers: auth,
    expect: 200,
  });
  if (read.id !== chains[0]!.project) throw new Error('GET answered another project');
  await checkOperations(galley, chains[0]!);

  const none = () => Promise.resolve();
  const resync = () => lockAndOpen(galley, chains); // the newest tokens; renews the locks (60 s)
  const measures: Array<[string, string, (i: number) => Request[], () => Promise<void>]> = [
    ['hello', hello.url, () => [{ method: 'GET', path: '/hello' }], none],
    ['healthz', galley.url, () => [{ method: 'GET', path: '/healthz' }], none],
    [
      'GET project',
      galley.url,
      (i) => [{ method: 'GET', path: `/api/v1/projects/${chains[i]!.project}`, headers: auth }],
      none,
    ],
    ['POST operations', galley.url, (i) => operations(chains[i]!, auth), resync],
  ];
  const rounds = new Map<string, Measure[]>(measures.map(([name]) => [name, []]));
  for (const [, url, requestsOf, after] of measures)
    await run(url, WARMUP_SECONDS, requestsOf, after);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url, requestsOf, after] of measures) {
      rounds.get(name)!.push(await run(url, MEASURE_SECONDS, requestsOf, after));
    }
  }
  const [helloM, healthM, getM, postM] = measures.map(([name]) =>
    summary(name, rounds.get(name)!),
  ) as [Measure, Measure, Measure, Measure];

  const getGoal = 1.5 * helloM.p50;
  const postGoal = 2 * getM.p50;
  const ms = (m: Measure) => `${m.p50.toFixed(3)} ms p50 (${Math.round(m.rps)} req/s)`;
  const result = {
    title: 'Editing interface (v1): operations and reads over HTTP',
    rows: [
      { name: 'bare Express 5 hello-world route', value: ms(helloM), goal: 'reference', ok: true },
      {
        name: 'GET /healthz of the service (its middleware, no credentials)',
        value: ms(healthM),
        goal: 'for information',
        ok: true,
      },
      {
        name: 'GET /api/v1/projects/{id}',
        value: ms(getM),
        goal: `≤ 1.5 × hello p50 (${getGoal.toFixed(3)} ms)`,
        ok: getM.p50 <= getGoal,
      },
      {
        name: 'POST /pages/{page}/operations, 200 KB page',
        value: ms(postM),
        goal: `≤ 2 × GET p50 (${postGoal.toFixed(3)} ms)`,
        ok: postM.p50 <= postGoal,
      },
    ],
    notes: `One connection, ${ROUNDS} interleaved rounds of ${MEASURE_SECONDS} s after ${WARMUP_SECONDS} s of warm-up each; medians of the rounds. Each server in its own process on loopback; SQLite in a temporary folder; request logs at level warn. Operations alternate an insert and a remove on a ${Math.round(html.length / 1024)} KB page (the draft is parsed once, then kept in memory). The hello route is Express as its guide shows it; the service hands Node request classes with the app's prototypes (http/express-messages.ts), which spares every request a prototype change and its garbage-collection cost.`,
  };
  mkdirSync(join(repo, '.bench'), { recursive: true });
  writeFileSync(join(repo, '.bench', 'v1.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.rows, null, 2));
} finally {
  hello.child.kill('SIGTERM');
  galley.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 10 });
}
