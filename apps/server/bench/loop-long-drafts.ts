// The loop benchmark's long drafts (see loop.bench.ts): LONG_DRAFTS drafts, one connection of
// operations each, and a GET project sent meanwhile, on fresh drafts and once every draft holds
// LONG_OPERATIONS unsaved operations.
import autocannon from 'autocannon';
import { api, createProject, folderZip, lock, p99, page, probeWhile } from './loop-fixtures.js';
import type { Target } from './loop-fixtures.js';
import type { LoopStats } from './loop-target.js';

export const LONG_DRAFTS = 50;
/** Operations per long draft (LOOP_BENCH_OPERATIONS overrides it for a quicker look). */
export const LONG_OPERATIONS = Number(process.env['LOOP_BENCH_OPERATIONS'] ?? 4000);
export const MEASURE_SECONDS = 8;
/**
 * Operations per draft before the fresh measure, unmeasured: a service's first seconds of load
 * include one-time costs (code compiled, modules loaded, the first snapshot of every draft at
 * once, see live-drafts.ts) that belong to no draft's length. Measured right after 20, the
 * fresh figure was 40% below the same measure run again at once.
 */
export const WARMUP_OPERATIONS = 150;
/**
 * The growing stops here, reached or not (the figures then say how far it got). 200,000
 * operations took 90-100 s on a quiet two-core machine, and over 150 s on a busy one, where the
 * rows then judged nothing: 240 s leaves room for both.
 */
export const GROW_LIMIT_SECONDS = 240;

interface Chain {
  project: string;
  page: string;
  client: string;
  token: string;
  done: number;
}

export interface Load {
  opsPerSecond: number;
  getP99: number;
  /** The longest event-loop stall in the server meanwhile. */
  stallMs: number;
}

export interface LongDrafts {
  fresh: Load;
  long: Load;
  /** The fewest operations a draft held at the start of each measure. */
  freshLeast: number;
  longLeast: number;
  growSeconds: number;
}

/** Locks last 60 seconds unless renewed; a run of operations may last longer. */
const LOCK_RENEW_MS = 20_000;

/**
 * Each chain's operations (insert a paragraph, remove it), carrying its token: `amount` each
 * (up to LONG_OPERATIONS in all), or for `seconds`, and never past `seconds`. Each chain's lock
 * is renewed while they run, and afterwards each chain's draft is read again: a run cut short
 * never reads the answer in flight at its end, though the server applied that operation, so the
 * chain's token would be stale and every later operation of the chain refused (409).
 */
async function operate(
  target: Target,
  chains: Chain[],
  limit: { amount?: number; seconds: number },
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
  limit: { amount?: number; seconds: number },
) {
  const runs = chains.flatMap((chain) => {
    const amount = limit.amount === undefined ? undefined : limit.amount - chain.done;
    if (amount !== undefined && amount < 1) return [];
    return autocannon({
      url: target.url,
      connections: 1,
      ...(amount === undefined ? { duration: limit.seconds } : { amount }),
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
    });
  });
  const deadline = setTimeout(() => {
    for (const run of runs) run.stop();
  }, limit.seconds * 1000);
  try {
    const results = await Promise.all(runs);
    const failed = results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
    if (failed > 0) throw new Error(`${failed} operations failed`);
  } finally {
    clearTimeout(deadline);
  }
}

const least = (chains: Chain[]) => Math.min(...chains.map((c) => c.done));

/** Operations for MEASURE_SECONDS, a GET project sent one at a time meanwhile. */
async function measureLoad(target: Target, chains: Chain[], project: string): Promise<Load> {
  const before = chains.reduce((n, c) => n + c.done, 0);
  await target.ask('reset');
  const reads = { path: `/api/v1/projects/${project}`, pauseMs: 0, fresh: false };
  const { times } = await probeWhile(target, reads, () =>
    operate(target, chains, { seconds: MEASURE_SECONDS }),
  );
  const loop = await target.ask<LoopStats>('loop');
  return {
    opsPerSecond: (chains.reduce((n, c) => n + c.done, 0) - before) / MEASURE_SECONDS,
    getP99: p99(times),
    stallMs: loop.maxMs,
  };
}

export async function longDrafts(target: Target): Promise<LongDrafts> {
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
  await operate(target, chains, { amount: WARMUP_OPERATIONS, seconds: GROW_LIMIT_SECONDS });
  console.log('long drafts: fresh');
  const freshLeast = least(chains);
  const fresh = await measureLoad(target, chains, unrelated.project);
  console.log(`long drafts: growing to ${LONG_OPERATIONS} operations each`);
  const grow = performance.now();
  await operate(target, chains, { amount: LONG_OPERATIONS, seconds: GROW_LIMIT_SECONDS });
  const growSeconds = (performance.now() - grow) / 1000;
  const longLeast = least(chains);
  console.log(`long drafts: long (${longLeast}+ operations each after ${growSeconds} s)`);
  const long = await measureLoad(target, chains, unrelated.project);
  return { fresh, long, freshLeast, longLeast, growSeconds };
}
