// A server in its own process, so its resident memory can be measured apart from the test's.
// Prints `{"url", "token"}` on its first stdout line; answers IPC messages:
// `reset` (start a new peak), `peak` ({rss, peak} in bytes), `stop` (close and exit).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, startServer } from '@galley/server';
import { openStore } from '@galley/store';

const dataDir = await mkdtemp(join(tmpdir(), 'galley-child-'));
const store = await openStore({ kind: 'sqlite', dataDir });
const server = await startServer({
  store,
  clock: { now: () => new Date() },
  config: loadConfig({}, { dataDir, logLevel: 'silent' }),
  host: '127.0.0.1',
  port: 0,
  baseUrlFromListen: true,
});
const created = await store.accounts.create({
  email: 'mem@example.org',
  name: 'M',
  password: 'pw',
});
if (!created.ok) throw new Error('account');
const { token } = await store.tokens.issue({ accountNumber: created.account.accountNumber });

let peak = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 5);

process.on('message', (message: string) => {
  if (message === 'reset') {
    peak = process.memoryUsage.rss();
    process.send?.({ rss: peak, peak });
  } else if (message === 'peak') {
    process.send?.({ rss: process.memoryUsage.rss(), peak });
  } else if (message === 'stop') {
    clearInterval(sampler);
    void server
      .close()
      .then(() => store.close())
      .then(() => rm(dataDir, { recursive: true, force: true }))
      .then(() => process.exit(0));
  }
});
process.stdout.write(`${JSON.stringify({ url: server.url, token })}\n`);
