// Benchmark of the service on many hosts: GET /api/v1/projects/{id} from two `galley serve`
// processes on two data folders (one PostgreSQL, one bucket)  vs  from one of them (goal ≥ 1.7×,
// on 2 cores). The S3 server is s3rver on loopback (scripts/start-test-s3.sh), PostgreSQL the
// test one (scripts/start-test-postgres.sh); without them the benchmark says why and measures
// nothing. Measures are interleaved in ROUNDS rounds and each figure is the median of its rounds.
// Writes <repo>/.bench/two-hosts.json. Run: pnpm --filter @galley/server bench
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { writeZip } from '@galley/core';
import { freshBucket } from '../../../packages/store/test/s3.js';
import type { TestBucket } from '../../../packages/store/test/s3.js';
import { freshPostgresDatabase } from '../../../packages/store/test/stores.js';

const ROUNDS = 3;
const CONNECTIONS = 8;
const MEASURE_SECONDS = 5;

const here = new URL('.', import.meta.url).pathname;
const repo = join(here, '../../..');

function write(rows: unknown[], notes: string): void {
  mkdirSync(join(repo, '.bench'), { recursive: true });
  const title = 'Many hosts: two processes on two data folders';
  writeFileSync(
    join(repo, '.bench', 'two-hosts.json'),
    `${JSON.stringify({ title, rows, notes }, null, 2)}\n`,
  );
}

/** The URL a start script prints, or why it printed none. */
function started(script: string, variable: string): { url?: string; reason?: string } {
  if (process.env[variable]) return { url: process.env[variable] };
  try {
    const url = execFileSync('bash', [join(repo, 'scripts', script)], { encoding: 'utf8' }).trim();
    return url ? { url } : { reason: `${script} printed no URL` };
  } catch {
    return { reason: `${script} could not start its server` };
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

interface Host {
  url: string;
  output: string;
  pid: number;
  stop(): void;
}

/** `galley serve` in a process of its own on a data folder of its own. */
function serve(env: Record<string, string>): Promise<Host> {
  const data = mkdtempSync(join(tmpdir(), 'galley-bench-host-'));
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
      data,
    ],
    {
      cwd: repo,
      env: {
        ...process.env,
        ...env,
        GALLEY_WORKERS: '1',
        GALLEY_LOG_LEVEL: 'warn',
        GALLEY_RATE_LIMIT: '1000000000',
      },
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const url = /Galley is at (https?:\/\/[^\s,]+)[, ].*\(data: /.exec(output)?.[1];
      if (url)
        resolve({
          url,
          output,
          pid: child.pid!,
          stop: () => {
            child.kill('SIGTERM');
            rmSync(data, { recursive: true, force: true });
          },
        });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** Seconds of CPU time since boot: every core's busy time (/proc/stat), one process's. */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
const cpuKnown = existsSync('/proc/stat');
function machineBusySeconds(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const ticks = fields.map(Number);
  const idle = ticks[3]! + ticks[4]!; // idle and iowait
  return (ticks.slice(0, 8).reduce((a, b) => a + b, 0) - idle) / ticksPerSecond;
}
function processSeconds(pid: number): number {
  // After the name in parentheses: utime and stime are the 12th and 13th fields.
  const after = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(after[11]) + Number(after[12])) / ticksPerSecond;
}

/** What one process's requests cost in CPU: all of the machine's, and the process's own. */
interface CpuPerRequest {
  machine: number;
  galley: number;
}

/** Requests a second that `urls` answer together, CONNECTIONS connections each. */
async function throughput(
  urls: string[],
  path: string,
  token: string,
  cpu?: { pid: number; into: CpuPerRequest[] },
): Promise<number> {
  const before = cpu && { machine: machineBusySeconds(), galley: processSeconds(cpu.pid) };
  let answered = 0;
  const results = await Promise.all(
    urls.map((url) => {
      const instance = autocannon({
        url: `${url}${path}`,
        connections: CONNECTIONS,
        duration: MEASURE_SECONDS,
        headers: { authorization: `Bearer ${token}` },
      });
      instance.on('response', () => (answered += 1));
      return instance;
    }),
  );
  for (const r of results) if (r.non2xx > 0 || r.errors > 0) throw new Error('failed requests');
  if (cpu && before)
    cpu.into.push({
      machine: (machineBusySeconds() - before.machine) / answered,
      galley: (processSeconds(cpu.pid) - before.galley) / answered,
    });
  return answered / MEASURE_SECONDS;
}

/**
 * The most any number of processes could serve on this machine's cores: every core busy, each
 * request costing the CPU one process's requests cost in all (Galley, PostgreSQL, the load
 * generator, the rest), as a ratio to what one process serves.
 */
function ceilingRow(costs: CpuPerRequest[], oneRps: number) {
  const machine = median(costs.map((c) => c.machine));
  const galley = median(costs.map((c) => c.galley));
  const cores = availableParallelism();
  const most = cores / machine;
  const micros = (seconds: number) => `${Math.round(seconds * 1e6)} µs`;
  return {
    name: `the ceiling on these ${cores} cores: CPU per request of one process (in all · of which Galley's process), and the most all ${cores} cores could serve at that cost`,
    value: `${micros(machine)} · ${micros(galley)}; ${Math.round(most)} req/s = ${(most / oneRps).toFixed(2)}× one process`,
    goal: 'reference',
    ok: true,
  };
}

async function twoProcessRows(bucket: TestBucket, pgUrl: string) {
  process.env.GALLEY_TEST_PG_URL = pgUrl;
  const database = await freshPostgresDatabase();
  const env = { ...bucket.env, GALLEY_DATABASE_URL: database.url };
  const hosts: Host[] = [];
  try {
    hosts.push(await serve(env));
    const token = /API token:\s+(glly_\S+)/.exec(hosts[0]!.output)![1]!;
    hosts.push(await serve(env));
    const [a, b] = hosts as [Host, Host];
    const project = {
      format: 1,
      title: 'Bench',
      media: { id: 'web', version: 1 },
      pages: [{ file: 'index.html', title: 'Home', public_url: '/' }],
    };
    const encoder = new TextEncoder();
    const form = new FormData();
    const zip = writeZip(
      new Map([
        ['project.json', encoder.encode(JSON.stringify(project))],
        [
          'index.html',
          encoder.encode(
            '<!doctype html><html><head><title>Home</title></head><body><p>Hi</p></body></html>',
          ),
        ],
      ]),
    );
    form.set('zip', new Blob([zip]), 'bench.zip');
    const created = await fetch(`${a.url}/api/v1/projects/folder`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-editor-client': 'bench' },
      body: form,
    });
    const { id } = (await created.json()) as { id: string };
    const path = `/api/v1/projects/${id}`;
    // Checked before timing: both processes answer the project one of them made.
    for (const host of hosts) {
      const res = await fetch(`${host.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status !== 200) throw new Error(`GET project on ${host.url}: ${res.status}`);
    }
    await throughput([a.url, b.url], path, token); // warm-up
    const one: number[] = [];
    const two: number[] = [];
    const costs: CpuPerRequest[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      one.push(
        await throughput([a.url], path, token, cpuKnown ? { pid: a.pid, into: costs } : undefined),
      );
      two.push(await throughput([a.url, b.url], path, token));
    }
    const ratio = median(two) / median(one);
    console.log(`two processes ${ratio.toFixed(2)}× one`);
    return [
      {
        name: 'GET /api/v1/projects/{id}: two processes on two data folders vs one',
        value: `${Math.round(median(two))} vs ${Math.round(median(one))} req/s (${ratio.toFixed(2)}×)`,
        goal: '≥ 1.7×',
        ok: ratio >= 1.7,
      },
      ...(cpuKnown ? [ceilingRow(costs, median(one))] : []),
    ];
  } finally {
    for (const host of hosts) host.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await database.drop();
  }
}

const s3 = started('start-test-s3.sh', 'GALLEY_TEST_S3_URL');
const pg = started('start-test-postgres.sh', 'GALLEY_TEST_PG_URL');
const missing = s3.reason ?? pg.reason;
if (missing) {
  console.log(`skipped: the two-hosts benchmark: ${missing}`);
  write([], `Not measured: ${missing}.`);
} else {
  process.env.GALLEY_TEST_S3_URL = s3.url;
  const bucket = await freshBucket();
  try {
    write(
      await twoProcessRows(bucket, pg.url!),
      `\`galley serve\` with GALLEY_WORKERS=1 per data folder, one PostgreSQL, one bucket (s3rver); ${CONNECTIONS} autocannon connections per process for ${MEASURE_SECONDS} s, ${ROUNDS} interleaved rounds, medians. The load generator, PostgreSQL and both processes share the same cores.`,
    );
  } finally {
    await bucket.remove();
  }
}
