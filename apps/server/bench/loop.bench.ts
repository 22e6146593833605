// Benchmark: nothing heavy on the event loop, drafts' memory, and long drafts, side by side in
// one run, each server in its own process (loop-target.ts) on loopback:
// - /healthz sent every 10 ms during a 50 MB folder upload and during the GET draft that opens a
//   2 MB page: its p99, and the longest event-loop stall inside the server
//   (monitorEventLoopDelay), with the pool (1 thread) beside everything on the event loop.
// - Heap of open drafts in the running server (after a full collection), per byte of page, for
//   200 KB and 2 MB pages.
// - 50 drafts, one connection each sending operations, and a GET project sent meanwhile: ops/s
//   and the GET's p99 on fresh drafts, then again once every draft holds 4,000 operations.
// Writes <repo>/.bench/loop.json. Run: npx tsx --conditions=@galley/source bench/loop.bench.ts
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { writeZip } from '@galley/core';
import type { LoopStats, TargetMessage } from './loop-target.js';

const MiB = 1024 * 1024;
const here = new URL('.', import.meta.url).pathname;
const repo = join(here, '../../..');
const encoder = new TextEncoder();
const STALL_GOAL_MS = 50;
const LONG_DRAFTS = 50;
/** Operations per long draft (LOOP_BENCH_OPERATIONS overrides it for a quicker look). */
const LONG_OPERATIONS = Number(process.env['LOOP_BENCH_OPERATIONS'] ?? 4000);
const MEASURE_SECONDS = 8;

interface Target {
  url: string;
  token: string;
  child: ChildProcess;
  dataDir: string;
  ask<T>(message: TargetMessage): Promise<T>;
}

async function startTarget(threads: number): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'galley-bench-loop-'));
  const child = fork(join(here, 'loop-target.ts'), [dataDir, String(threads)], {
    execArgv: ['--expose-gc', '--import', 'tsx', '--conditions=@galley/source'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child.once('exit', (code, signal) => {
    if (code !== 0) console.error(`the server (pool threads ${threads}) ended: ${code ?? signal}`);
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  const ask = async <T>(message: TargetMessage) => {
    child.send(message);
    return ((await once(child, 'message')) as [T])[0];
  };
  return { url, token, child, dataDir, ask };
}

async function stopTarget(target: Target): Promise<void> {
  target.child.send('stop');
  await once(target.child, 'exit');
  rmSync(target.dataDir, { recursive: true, force: true, maxRetries: 10 });
}

/** A deterministic pseudo-random source, so every run sends the same folder. */
let state = 42;
const next = () => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x80000000;
const words = 'galley page folder canvas banner layout copy print social signage'.split(' ');
const text = (n: number) => Array.from({ length: n }, (_, i) => words[(i * 7 + n) % 10]).join(' ');

/** A page of about `bytes`: sections of headings, paragraphs and lists, every id unique. */
function page(bytes: number, images: string[] = []): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const image = images.length ? `<img src="${images[i % images.length]}" alt="a">` : '';
    const part = `<section id="s${i}" class="block"><h2 id="h${i}">Part ${i}</h2><p>${text(40)}</p>${image}<ul><li>${text(8)}</li><li>${text(9)}</li></ul></section>\n`;
    parts.push(part);
    size += part.length;
  }
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Bench</title></head><body><main id="main">\n${parts.join('')}</main></body></html>\n`;
}

/** A PNG signature and header, then incompressible bytes (a stored entry, as real images are). */
function png(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = Math.floor(next() * 256);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, 320);
  new DataView(bytes.buffer).setUint32(20, 200);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

function folderZip(pages: Record<string, string>, extra = new Map<string, Uint8Array>()) {
  const files = Object.keys(pages);
  const project = {
    format: 1,
    title: 'Bench',
    media: { id: 'web', version: 1 },
    pages: files.map((file, i) => ({ file, title: `Page ${i}`, public_url: `/${file}` })),
  };
  const folder = new Map<string, Uint8Array>([
    ['project.json', encoder.encode(JSON.stringify(project))],
  ]);
  for (const [file, html] of Object.entries(pages)) folder.set(file, encoder.encode(html));
  for (const [path, bytes] of extra) folder.set(path, bytes);
  return writeZip(folder);
}

/** About 50 MB: 300 pages of 60 KB that show 900 images of 55 KB. */
function largeFolder(): Uint8Array {
  const images = new Map<string, Uint8Array>();
  for (let i = 0; i < 900; i++) images.set(`img/i${i}.png`, png(55_000));
  const names = [...images.keys()];
  const pages: Record<string, string> = {};
  for (let i = 0; i < 300; i++) pages[`p${i}.html`] = page(60_000, names.slice(i * 3, i * 3 + 8));
  return folderZip(pages, images);
}

async function api<T>(
  target: Target,
  method: string,
  path: string,
  init: RequestInit & { client?: string } = {},
) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${target.token}`);
  headers.set('x-editor-client', init.client ?? 'bench');
  const res = await fetch(`${target.url}/api/v1${path}`, { ...init, method, headers });
  const body = (await res.json()) as T & { code?: string };
  if (!res.ok)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

async function createProject(target: Target, zip: Uint8Array, client = 'bench') {
  const form = new FormData();
  form.set('zip', new Blob([zip]), 'folder.zip');
  const project = await api<{ id: string }>(target, 'POST', '/projects/folder', {
    body: form,
    client,
  });
  const { pages } = await api<{ pages: Array<{ id: string }> }>(
    target,
    'GET',
    `/projects/${project.id}/pages`,
  );
  return { project: project.id, page: pages[0]!.id };
}

async function lock(target: Target, project: string, client: string) {
  await api(target, 'PUT', `/projects/${project}/lock`, {
    client,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'agent', label: 'bench' }),
  });
}

/**
 * GET /healthz on a new connection: a kept-alive one may be closed by the server as its timeout
 * fires after a long stall, which would fail the probe instead of timing it.
 */
function healthz(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error('healthz'))));
    }).on('error', reject);
  });
}

interface Probe {
  healthP99: number;
  /** Probes refused or cut (their p99 is then infinite). */
  failures: number;
  loop: LoopStats;
  workMs: number;
}

/** /healthz every 10 ms (one at a time) while `work` runs, and the server's loop meanwhile. */
async function probe(target: Target, work: () => Promise<void>): Promise<Probe> {
  await target.ask('reset');
  const times: number[] = [];
  let done = false;
  let failures = 0;
  const probing = (async () => {
    while (!done) {
      const start = performance.now();
      // A refused or cut probe counts as one that never came back in time.
      await healthz(target.url).catch(() => (failures += 1));
      times.push(performance.now() - start);
      await sleep(10);
    }
  })();
  const start = performance.now();
  await work();
  const workMs = performance.now() - start;
  done = true;
  await probing;
  const loop = await target.ask<LoopStats>('loop');
  times.sort((a, b) => a - b);
  const healthP99 = failures > 0 ? Infinity : (times[Math.floor(times.length * 0.99)] ?? NaN);
  return { healthP99, loop, workMs, failures };
}

async function responsiveness(threads: number, zip: Uint8Array, bigPage: Uint8Array) {
  const target = await startTarget(threads);
  try {
    const setup = await createProject(target, bigPage);
    await createProject(target, folderZip({ 'index.html': page(1000) })); // warm: pool, caches
    console.log(`pool threads ${threads}: upload`);
    const upload = await probe(target, async () => {
      await createProject(target, zip);
    });
    console.log(`pool threads ${threads}: open`);
    await lock(target, setup.project, 'bench'); // now: the upload may outlast a lock's minute
    const open = await probe(target, async () => {
      const draft = await api<{ html: string }>(target, 'GET', `/pages/${setup.page}/draft`);
      if (draft.html.length < 2 * MiB) throw new Error('the draft is not the 2 MB page');
    });
    console.log(JSON.stringify({ threads, upload, open }));
    return { upload, open };
  } finally {
    await stopTarget(target);
  }
}

/** Heap per byte of page of `count` open drafts, each of its own project. */
async function draftHeap(target: Target, bytes: number, count: number): Promise<number> {
  const html = page(bytes);
  const opened: Array<{ page: string; client: string }> = [];
  for (let i = 0; i < count; i++) {
    const client = `heap-${bytes}-${i}`;
    const { project, page: pageId } = await createProject(
      target,
      folderZip({ 'index.html': html }),
      client,
    );
    await lock(target, project, client);
    opened.push({ page: pageId, client });
  }
  const before = (await target.ask<{ heapUsed: number }>('heap')).heapUsed;
  for (const { page: pageId, client } of opened) {
    await api(target, 'GET', `/pages/${pageId}/draft`, { client });
  }
  const after = (await target.ask<{ heapUsed: number }>('heap')).heapUsed;
  return (after - before) / count / html.length;
}

interface Chain {
  project: string;
  page: string;
  client: string;
  token: string;
  done: number;
}

/** Locks last 60 seconds unless renewed; a run of operations may last longer. */
const LOCK_RENEW_MS = 20_000;

/**
 * Each chain's operations (insert a paragraph, remove it), carrying its token; `amount` or
 * `duration`. Each chain's lock is renewed while they run, and afterwards each chain's draft is
 * read again: a run cut by its duration never reads the answer in flight at its end, though the
 * server applied that operation, so the chain's token would be stale and every later operation
 * of the chain refused (409).
 */
async function operate(
  target: Target,
  chains: Chain[],
  limit: { amount?: number; duration?: number },
) {
  const renewal = setInterval(() => {
    for (const chain of chains)
      lock(target, chain.project, chain.client).catch((error: unknown) => {
        console.error(`renewing the lock of ${chain.client}: ${String(error)}`);
      });
  }, LOCK_RENEW_MS);
  try {
    await operateOnce(target, chains, limit);
  } finally {
    clearInterval(renewal);
    await resync(target, chains);
  }
}

/** The chain's newest token; an operation whose answer was never read is counted as done. */
async function resync(target: Target, chains: Chain[]) {
  await Promise.all(
    chains.map(async (chain) => {
      const draft = await api<{ draft_token: string; html: string }>(
        target,
        'GET',
        `/pages/${chain.page}/draft`,
        { client: chain.client },
      );
      chain.token = draft.draft_token;
      // After an odd number of operations the paragraph is there.
      if (draft.html.includes('id="op"') !== (chain.done % 2 === 1)) chain.done += 1;
    }),
  );
}

async function operateOnce(
  target: Target,
  chains: Chain[],
  limit: { amount?: number; duration?: number },
) {
  const runs = chains.map((chain) =>
    autocannon({
      url: target.url,
      connections: 1,
      ...(limit.amount ? { amount: limit.amount } : { duration: limit.duration }),
      requests: [
        {
          method: 'POST',
          path: `/api/v1/pages/${chain.page}/operations`,
          headers: {
            authorization: `Bearer ${target.token}`,
            'x-editor-client': chain.client,
            'content-type': 'application/json',
          },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({
              draft_token: chain.token,
              operation:
                chain.done % 2 === 0
                  ? { kind: 'insert', parent: '#s3', html: '<p id="op">operation</p>' }
                  : { kind: 'remove', target: '#op' },
            }),
          }),
          onResponse: (status, body) => {
            if (status !== 200) return;
            chain.token = (JSON.parse(body) as { draft_token: string }).draft_token;
            chain.done += 1;
          },
        },
      ],
    }),
  );
  const results = await Promise.all(runs);
  const failed = results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
  if (failed > 0) throw new Error(`${failed} operations failed`);
}

/** Operations for MEASURE_SECONDS, a GET project sent one at a time meanwhile. */
async function measureLoad(target: Target, chains: Chain[], project: string) {
  const before = chains.reduce((n, c) => n + c.done, 0);
  const times: number[] = [];
  let done = false;
  const reads = (async () => {
    while (!done) {
      const start = performance.now();
      // A read cut under load (a kept-alive connection closed as it was reused) counts as slow.
      const ok = await api(target, 'GET', `/projects/${project}`).then(
        () => true,
        () => false,
      );
      times.push(ok ? performance.now() - start : Infinity);
    }
  })();
  await operate(target, chains, { duration: MEASURE_SECONDS });
  done = true;
  await reads;
  times.sort((a, b) => a - b);
  return {
    opsPerSecond: (chains.reduce((n, c) => n + c.done, 0) - before) / MEASURE_SECONDS,
    getP99: times[Math.floor(times.length * 0.99)] ?? NaN,
  };
}

async function longDrafts(target: Target) {
  const zip = folderZip({ 'index.html': page(20_000) });
  const chains: Chain[] = [];
  for (let i = 0; i < LONG_DRAFTS; i++) {
    const client = `long-${i}`;
    const { project, page: pageId } = await createProject(target, zip, client);
    await lock(target, project, client);
    const draft = await api<{ draft_token: string }>(target, 'GET', `/pages/${pageId}/draft`, {
      client,
    });
    chains.push({ project, page: pageId, client, token: draft.draft_token, done: 0 });
  }
  const unrelated = await createProject(target, zip);
  console.log('long drafts: fresh');
  const fresh = await measureLoad(target, chains, unrelated.project);
  console.log('long drafts: growing');
  const grow = performance.now();
  await operate(target, chains, {
    amount: LONG_OPERATIONS - Math.min(...chains.map((c) => c.done)),
  });
  const growSeconds = (performance.now() - grow) / 1000;
  const long = await measureLoad(target, chains, unrelated.project);
  return { fresh, long, growSeconds, least: Math.min(...chains.map((c) => c.done)) };
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);
const zip = largeFolder();
const twoMb = folderZip({ 'index.html': page(2 * MiB) });
console.log(`folder ZIP ${fixed(zip.length / MiB)} MiB`);
const inline = await responsiveness(0, zip, twoMb);
const pooled = await responsiveness(1, zip, twoMb);
const target = await startTarget(1);
let heap: Record<string, number>;
let load: Awaited<ReturnType<typeof longDrafts>>;
try {
  heap = {
    '200 KB': await draftHeap(target, 200 * 1024, 8),
    '2 MB': await draftHeap(target, 2 * MiB, 3),
  };
  load = await longDrafts(target);
} finally {
  await stopTarget(target);
}

const stall = (name: string, p: Probe, base: Probe) => [
  {
    name: `${name}: /healthz p99 (with the pool | all on the event loop)`,
    value: `${fixed(p.healthP99)} ms | ${fixed(base.healthP99)} ms (failed probes ${p.failures} | ${base.failures})`,
    goal: `≤ ${STALL_GOAL_MS} ms`,
    ok: p.healthP99 <= STALL_GOAL_MS,
  },
  {
    name: `${name}: longest event-loop stall in the server (with the pool | all on the event loop)`,
    value: `${fixed(p.loop.maxMs)} ms | ${fixed(base.loop.maxMs)} ms (${fixed(p.workMs, 0)} | ${fixed(base.workMs, 0)} ms in all)`,
    goal: `≤ ${STALL_GOAL_MS} ms`,
    ok: p.loop.maxMs <= STALL_GOAL_MS,
  },
];
const opsRatio = load.fresh.opsPerSecond / load.long.opsPerSecond;
const getRatio = load.long.getP99 / load.fresh.getP99;
const result = {
  title: 'Event loop, draft memory and long drafts',
  rows: [
    ...stall(`${fixed(zip.length / MiB, 0)} MB folder upload`, pooled.upload, inline.upload),
    ...stall('GET draft opening a 2 MB page', pooled.open, inline.open),
    ...Object.entries(heap).map(([size, ratio]) => ({
      name: `heap of an open draft in the server, ${size} page`,
      value: `${fixed(ratio)} × the page`,
      goal: '≤ 8 ×',
      ok: ratio <= 8,
    })),
    {
      name: `${LONG_DRAFTS} drafts, operations per second (fresh | ${load.least}+ operations each)`,
      value: `${fixed(load.fresh.opsPerSecond, 0)} | ${fixed(load.long.opsPerSecond, 0)} (fresh ${fixed(opsRatio, 2)} ×)`,
      goal: 'fresh ≤ 1.5 × long',
      ok: opsRatio <= 1.5,
    },
    {
      name: `${LONG_DRAFTS} drafts, p99 of an unrelated GET project (fresh | long)`,
      value: `${fixed(load.fresh.getP99)} ms | ${fixed(load.long.getP99)} ms (${fixed(getRatio, 2)} ×)`,
      goal: 'long ≤ 1.5 × fresh',
      ok: getRatio <= 1.5,
    },
  ],
  notes: `Each server in its own process (SQLite in a temporary folder, logs at warn), the pool with 1 thread beside GALLEY_POOL_THREADS=0; /healthz sent one at a time every 10 ms. Event-loop stalls from perf_hooks.monitorEventLoopDelay (resolution 5 ms) inside the server. Heap: heapUsed after a full collection, before and after opening the drafts (GET draft), per draft and byte of page. Long drafts: ${LONG_DRAFTS} connections of operations on ${LONG_DRAFTS} drafts of a 20 KB page (insert, remove), ${MEASURE_SECONDS} s each, grown to ${LONG_OPERATIONS} operations each in ${fixed(load.growSeconds, 0)} s between the two measures, a GET project sent one at a time meanwhile.`,
};
mkdirSync(join(repo, '.bench'), { recursive: true });
writeFileSync(join(repo, '.bench', 'loop.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
