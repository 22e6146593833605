// The service for the events benchmark, in a process of its own: prints `{url, token, project}`,
// then answers each line on stdin with its memory after a full garbage collection.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startBenchServer } from './bench-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'galley-events-bench-'));
const server = await startBenchServer(dataDir, { eventStreamsPerAccount: 100_000 });
const gc = (globalThis as { gc?: () => void }).gc;
console.log(JSON.stringify({ url: server.url, token: server.token }));
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stop') break;
  gc?.();
  gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  console.log(JSON.stringify({ rss, heapUsed, external }));
}
await server.stop();
process.exit(0);
