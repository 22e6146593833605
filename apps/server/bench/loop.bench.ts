// Benchmark: nothing heavy on the event loop, drafts' memory, and long drafts, side by side in
// one run, each server in its own process (loop-target.ts) on loopback:
// - /healthz sent every 10 ms during a 50 MB folder upload and during the GET draft that opens a
//   2 MB page: its p99, and the longest event-loop stall inside the server
//   (monitorEventLoopDelay), with the pool (1 thread) beside everything on the event loop.
// - Heap of open drafts in the running server (after a full collection), per byte of page, for
//   200 KB and 2 MB pages.
// - 50 drafts, one connection each sending operations, and a GET project sent meanwhile: ops/s
//   and the GET's p99 on fresh drafts, then again once every draft holds 4,000 operations
//   (loop-long-drafts.ts).
// Every part is bounded in count and time (the growing of the long drafts stops after
// GROW_LIMIT_SECONDS, reached or not), so the run ends by itself in a few minutes.
// Writes <repo>/.bench/loop.json. Run: npx tsx --conditions=@galley/source bench/loop.bench.ts
import { loadavg } from 'node:os';
import { writeBench } from './bench-child.js';
import {
  api,
  createProject,
  folderZip,
  largeFolder,
  lock,
  p99,
  page,
  probeWhile,
  startTarget,
  stopTarget,
} from './loop-fixtures.js';
import type { Target } from './loop-fixtures.js';
import {
  GROW_LIMIT_SECONDS,
  LONG_DRAFTS,
  LONG_OPERATIONS,
  MEASURE_SECONDS,
  WARMUP_OPERATIONS,
  longDrafts,
} from './loop-long-drafts.js';
import type { Load } from './loop-long-drafts.js';
import type { LoopStats } from './loop-target.js';

const MiB = 1024 * 1024;
const STALL_GOAL_MS = 50;

interface Probe {
  healthP99: number;
  /** Probes refused or cut (each counts as one that never came back). */
  failures: number;
  loop: LoopStats;
  workMs: number;
}

/** /healthz every 10 ms (one at a time) while `work` runs, and the server's loop meanwhile. */
async function probe(target: Target, work: () => Promise<void>): Promise<Probe> {
  await target.ask('reset');
  const start = performance.now();
  const { times } = await probeWhile(target, { path: '/healthz', pauseMs: 10, fresh: true }, work);
  const workMs = performance.now() - start;
  const loop = await target.ask<LoopStats>('loop');
  const failures = times.filter((time) => time === Infinity).length;
  // A probe refused or cut is a stall no percentile may hide.
  return { healthP99: failures > 0 ? Infinity : p99(times), loop, workMs, failures };
}

async function responsiveness(threads: number, zip: Uint8Array, bigPage: Uint8Array) {
  const target = await startTarget(threads);
  try {
    const setup = await createProject(target, bigPage);
    // Warm: the pool, caches, and the draft engine's code (a small draft opened), as a server
    // that has served before is.
    const warm = await createProject(target, folderZip({ 'index.html': page(20_000) }));
    await lock(target, warm.project, 'bench');
    await api(target, 'GET', `/pages/${warm.page}/draft`);
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

const fixed = (n: number, digits = 1) => n.toFixed(digits);
const began = performance.now();
const loadAtStart = loadavg()[0]!;
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
    value: `${fixed(p.loop.maxMs)} ms | ${fixed(base.loop.maxMs)} ms (${fixed(p.workMs, 0)} | ${fixed(base.workMs, 0)} ms in all; longest GC pause ${fixed(p.loop.gcMaxMs)} | ${fixed(base.loop.gcMaxMs)} ms)`,
    goal: `≤ ${STALL_GOAL_MS} ms`,
    ok: p.loop.maxMs <= STALL_GOAL_MS,
  },
];
const { fresh, long } = load;
const reached = load.longLeast >= LONG_OPERATIONS;
const opsRatio = fresh.opsPerSecond / long.opsPerSecond;
const getRatio = long.getP99 / fresh.getP99;
const stalls = (l: Load) => `${fixed(l.stallMs, 0)} ms`;
writeBench(
  'loop',
  'Event loop, draft memory and long drafts',
  [
    ...stall(`${fixed(zip.length / MiB, 0)} MB folder upload`, pooled.upload, inline.upload),
    ...stall('GET draft opening a 2 MB page', pooled.open, inline.open),
    ...Object.entries(heap).map(([size, ratio]) => ({
      name: `heap of an open draft in the server, ${size} page`,
      value: `${fixed(ratio)} × the page`,
      goal: '≤ 8 ×',
      ok: ratio <= 8,
    })),
    {
      name: `${LONG_DRAFTS} drafts, operations per second (fresh | ${load.longLeast}+ operations each)`,
      value: `${fixed(fresh.opsPerSecond, 0)} | ${fixed(long.opsPerSecond, 0)} (fresh ${fixed(opsRatio, 2)} ×)`,
      goal: `fresh ≤ 1.5 × long, at ${LONG_OPERATIONS} operations each`,
      ok: reached && opsRatio <= 1.5,
    },
    {
      name: `${LONG_DRAFTS} drafts, p99 of an unrelated GET project (fresh | long)`,
      value: `${fixed(fresh.getP99)} ms | ${fixed(long.getP99)} ms (${fixed(getRatio, 2)} ×)`,
      goal: `long ≤ 1.5 × fresh, at ${LONG_OPERATIONS} operations each`,
      ok: reached && getRatio <= 1.5,
    },
  ],
  `Each server in its own process (SQLite in a temporary folder, logs at warn), the pool with 1 thread beside GALLEY_POOL_THREADS=0; /healthz sent one at a time every 10 ms, each on a new connection, from a thread of its own (loop-probe.mjs: the benchmark's own work never delays a probe's timing). Event-loop stalls from perf_hooks.monitorEventLoopDelay (resolution 5 ms) inside the server. Heap: heapUsed after a full collection, before and after opening the drafts (GET draft), per draft and byte of page. Long drafts: ${LONG_DRAFTS} connections of operations on ${LONG_DRAFTS} drafts of a 20 KB page (insert, remove), ${WARMUP_OPERATIONS} each unmeasured first, then ${MEASURE_SECONDS} s on fresh drafts (${load.freshLeast}+ operations each), grown to ${LONG_OPERATIONS} operations each in ${fixed(load.growSeconds, 0)} s (at most ${GROW_LIMIT_SECONDS} s), then ${MEASURE_SECONDS} s again; a GET project sent one at a time meanwhile (from a thread of its own, on one kept-alive connection); the server's longest event-loop stall in each measure: ${stalls(fresh)} | ${stalls(long)}. Load average ${fixed(loadAtStart)} when the run began, ${fixed(loadavg()[0]!)} at its end; the whole run took ${fixed((performance.now() - began) / 1000, 0)} s.`,
);
