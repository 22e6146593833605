// Benchmark of the project list, side by side in one run, on loopback:
//   GET /api/v1/projects (first page) at 50,000 projects  vs  the same at 10      (goal ≤ 1.5×)
//   paging through all 50,000, per project               vs  through all 5,000   (goal ≤ 1.5×)
// The projects are written straight into the store (bulk inserts through its database), not
// made by 50,000 HTTP calls; the server runs in a child process on the same SQLite file.
// Writes <repo>/.bench/listing.json. Run: pnpm --filter @galley/server bench
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { seedProjects } from '../../../packages/store/test/bulk-projects.js';
import { median, serveBenchChild, writeBench } from './bench-child.js';

const ROUNDS = 41;
const PER_PAGE = 200;

interface Target {
  url: string;
  token: string;
}

interface ProjectList {
  projects: Array<{ id: string }>;
  next_page_url: string | null;
}

/**
 * GET `url` on `agent`. Each measurement brings its own keep-alive agent: a connection left idle
 * while the store was seeded may have been closed by the server.
 */
function getList(target: Target, agent: Agent, url: string): Promise<ProjectList> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${target.token}` };
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode} ${body}`));
        else resolve(JSON.parse(body) as ProjectList);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Median milliseconds of the first page (the default 50 projects), checked each time. */
async function firstPage(target: Target, expected: number): Promise<number> {
  const agent = new Agent({ keepAlive: true });
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    const page = await getList(target, agent, `${target.url}/api/v1/projects`);
    times.push(performance.now() - start);
    if (page.projects.length !== Math.min(50, expected)) throw new Error('wrong first page');
  }
  agent.destroy();
  return median(times.slice(5));
}

/** Milliseconds to follow `next_page_url` through every project (best of 3), checked. */
async function pageThrough(target: Target, expected: number): Promise<number> {
  const agent = new Agent({ keepAlive: true });
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const seen = new Set<string>();
    const start = performance.now();
    let url: string | null = `${target.url}/api/v1/projects?per_page=${PER_PAGE}`;
    while (url) {
      const page: ProjectList = await getList(target, agent, url);
      for (const project of page.projects) seen.add(project.id);
      url = page.next_page_url;
    }
    times.push(performance.now() - start);
    if (seen.size !== expected) throw new Error(`paged through ${seen.size} of ${expected}`);
  }
  agent.destroy();
  return Math.min(...times);
}

async function grow(store: Store, accountNumber: number, from: number, to: number) {
  await seedProjects(store, {
    accountNumber,
    count: to - from,
    from: new Date(Date.UTC(2030, 0, 1) + from * 1000),
  });
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'galley-bench-listing-'));
  const dataDir = join(work, 'data');
  const child = fork(new URL(import.meta.url).pathname, ['serve', dataDir], {
    execArgv: ['--import', 'tsx', '--conditions=@galley/source'],
  });
  try {
    const [target] = (await once(child, 'message')) as [Target];
    const store = await openStore({ kind: 'sqlite', dataDir });
    const account = (await store.accounts.findByEmail('bench@example.org'))!;
    await grow(store, account.accountNumber, 0, 10);
    const firstAt10 = await firstPage(target, 10);
    await grow(store, account.accountNumber, 10, 5_000);
    const allOf5k = await pageThrough(target, 5_000);
    await grow(store, account.accountNumber, 5_000, 50_000);
    const firstAt50k = await firstPage(target, 50_000);
    const allOf50k = await pageThrough(target, 50_000);
    await store.close();
    const perProject = (ms: number, n: number) => (ms / n) * 1000;
    const rows = [
      {
        name: 'GET /projects, first page: 50,000 projects vs 10 (ms, median of 36)',
        value: `${firstAt50k.toFixed(2)} vs ${firstAt10.toFixed(2)} ms (${(firstAt50k / firstAt10).toFixed(2)}×)`,
        goal: '≤ 1.5×',
        ok: firstAt50k / firstAt10 <= 1.5,
      },
      {
        name: `paging through every project (per_page ${PER_PAGE}): 50,000 vs 5,000, per project (µs, best of 3)`,
        value:
          `${perProject(allOf50k, 50_000).toFixed(1)} vs ${perProject(allOf5k, 5_000).toFixed(1)} µs ` +
          `(${(allOf50k / 50_000 / (allOf5k / 5_000)).toFixed(2)}×; ${allOf50k.toFixed(0)} ms in all)`,
        goal: '≤ 1.5× (O(n))',
        ok: allOf50k / 50_000 / (allOf5k / 5_000) <= 1.5,
      },
    ];
    writeBench('listing', 'Project list (/api/v1/projects), loopback', rows);
  } finally {
    child.send('stop');
    await once(child, 'exit');
    await rm(work, { recursive: true, force: true });
  }
}

// Last, so every constant above is initialized before either role runs.
if (process.argv[2] === 'serve') await serveBenchChild(process.argv[3]!);
else await main();
