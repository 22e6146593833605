// Benchmark of the event streams, against the service in its own process on loopback (SQLite):
//   an event reaches a subscriber within 50 ms p99 of the write that made it (a lock taken or
//   released; timed from the write's answer, 0 when the event came first), side by side with
//   the p99 of the write's own answer;
//   1,000 open event streams cost the service at most 50 MiB (its memory after a full
//   garbage collection, with the streams open and before them).
// Writes <repo>/.bench/events.json. Run: cd apps/server && npx tsx --conditions=@galley/source bench/events.bench.ts
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from '@galley/client';
import { writeZip } from '@galley/core';
import { projectFolder } from '../test/v1/helpers.js';

const WRITES = 400;
const STREAMS = 1_000;
const MiB = 1024 * 1024;
const here = new URL('.', import.meta.url).pathname;
const repo = join(here, '../../..');

const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', '--conditions=@galley/source', join(here, 'events-target.ts')],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const nextLine = async () =>
  JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
const memory = async () => {
  child.stdin.write('mem\n');
  // The service's own log lines share the pipe: the answer is the line with `rss`.
  for (;;) {
    const line = await nextLine();
    if (typeof line.rss === 'number') return line.rss;
  }
};

const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)]!;

try {
  const { url, token } = (await nextLine()) as { url: string; token: string };
  const folder = projectFolder('Bench');
  const client = createClient({ baseUrl: url, token, editorClient: 'bench-events' });
  const project = await client.v1.createProject(writeZip(folder));

  // Latency: one subscriber; each write waits for its event before the next.
  const stop = new AbortController();
  const events = client.v1.events({ project: project.id, signal: stop.signal });
  const first = events.next();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const toEvent: number[] = [];
  const toAnswer: number[] = [];
  let pending = first;
  for (let i = 0; i < WRITES; i++) {
    const started = performance.now();
    const write =
      i % 2 === 0
        ? client.v1.lock(project.id, { kind: 'agent', label: 'Bench' })
        : client.v1.unlock(project.id);
    let answered = 0;
    void write.then(() => (answered = performance.now()));
    const got = await pending;
    if (got.done) throw new Error('the stream ended');
    const arrived = performance.now();
    await write;
    toAnswer.push(answered - started);
    // The event may come before the write's answer: then it lagged nothing.
    toEvent.push(Math.max(0, arrived - answered));
    pending = events.next();
  }
  pending.catch(() => undefined);
  stop.abort();

  // Memory: STREAMS raw streams held open (no reading beyond their headers).
  const before = await memory();
  const open: ClientRequest[] = [];
  await Promise.all(
    Array.from(
      { length: STREAMS },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = request(
            `${url}/api/v1/events`,
            { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
            (res) => {
              if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
              res.once('data', () => resolve());
            },
          );
          req.on('error', reject);
          req.end();
          open.push(req);
        }),
    ),
  );
  const during = await memory();
  for (const req of open) req.destroy();
  const streamMiB = (during - before) / MiB;

  const eventP99 = p99(toEvent);
  const answerP99 = p99(toAnswer);
  const result = {
    title: 'Event streams',
    rows: [
      {
        name: 'the write’s answer → its event at the subscriber, p99 (ms)',
        value: Math.round(eventP99 * 10) / 10,
        goal: '≤ 50',
        ok: eventP99 <= 50,
      },
      {
        name: 'the write’s own answer, p99 (ms), side by side',
        value: Math.round(answerP99 * 10) / 10,
        goal: '(reference)',
        ok: true,
      },
      {
        name: `${STREAMS} open event streams, service memory (MiB)`,
        value: Math.round(streamMiB * 10) / 10,
        goal: '≤ 50',
        ok: streamMiB <= 50,
      },
    ],
    notes: `${WRITES} writes (a lock taken, then released, alternately), each event timed from the write's answer to its arrival at one subscriber of GET /api/v1/events over loopback; the service in its own process on SQLite. Memory: the service's resident set after two full garbage collections, with ${STREAMS} streams open minus before them.`,
  };
  mkdirSync(join(repo, '.bench'), { recursive: true });
  writeFileSync(join(repo, '.bench', 'events.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.rows, null, 2));
} finally {
  child.stdin.write('stop\n');
  setTimeout(() => child.kill('SIGTERM'), 2_000).unref();
}
