// A server for the v1 benchmark, in its own process so that load generation and serving do
// not share an event loop. `hello`: a bare Express 5 hello-world route. `galley`: the whole
// service over a real SQLite file in DATA_DIR, with one account and its token.
// Prints one JSON line ({url, token?}) once listening; stops on SIGTERM.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { openStore, systemClock } from '@galley/store';
import { loadConfig, startServer } from '../src/index.js';

const [mode, dataDir] = process.argv.slice(2);

if (mode === 'hello') {
  const app = express();
  app.get('/hello', (_req, res) => {
    res.send('hello');
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'galley' && dataDir) {
  const store = await openStore({ kind: 'sqlite', dataDir });
  const created = await store.accounts.create({
    email: 'bench@example.org',
    name: 'Bench',
    password: 'pw',
  });
  if (!created.ok) throw new Error(created.code);
  const { token } = await store.tokens.issue({ accountNumber: created.account.accountNumber });
  // Request logs off (level warn): the figures compare request handling, not log output.
  const config = loadConfig({}, { dataDir, logLevel: 'warn', rateLimitPerMinute: 1_000_000_000 });
  const server = await startServer({
    store,
    clock: systemClock,
    config,
    host: '127.0.0.1',
    port: 0,
    baseUrlFromListen: true,
  });
  console.log(JSON.stringify({ url: server.url, token }));
  process.on('SIGTERM', () => {
    void server
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
  });
} else {
  console.error('usage: v1-target.ts hello | galley <data-dir>');
  process.exit(2);
}
