// Benchmark of the service on many hosts: GET /api/v1/projects/{id} from two `galley serve`
// processes on two data folders (one PostgreSQL, one bucket)  vs  from one of them (goal ≥ 1.7×,
// on 2 cores). The S3 server is s3rver on loopback (scripts/start-test-s3.sh), PostgreSQL the
// test one (scripts/start-test-postgres.sh); without them the benchmark says why and measures
// nothing. Measures are interleaved in ROUNDS rounds and each figure is the median of its rounds.
// Writes <repo>/.bench/two-hosts.json. Run: pnpm --filter @galley/server bench
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { writeZip } from '@galley/core';
import { freshBucket } from '../../../packages/store/test/s3.js';
import type { TestBucket } from '../../../packages/store/test/s3.js';
import { freshPostgresDatabase } from '../../../packages/store/test/stores.js';
import { ceilingRow, cpuKnown, meterCpu } from './cpu-cost.js';
import type { CpuPerRequest } from './cpu-cost.js';
import { median } from './bench-child.js';

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

/** Requests a second that `urls` answer together, CONNECTIONS connections each. */
async function throughput(
  urls: string[],
  path: string,
  token: string,
  cpu?: { pid: number; into: CpuPerRequest[] },
): Promise<number> {
  const meter = cpu && meterCpu(cpu.pid);
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
  if (cpu && meter) cpu.into.push(meter.end(answered));
  return answered / MEASURE_SECONDS;
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
      ...(cpuKnown ? [ceilingRow('GET /api/v1/projects/{id}', costs, median(one))] : []),
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
