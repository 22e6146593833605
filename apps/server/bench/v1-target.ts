// A server for the v1 benchmark, in its own process so that load generation and serving do
// not share an event loop. `hello`: a bare Express 5 hello-world route. `galley`: the whole
// service over a real SQLite file in DATA_DIR, with one account and its token.
// Prints one JSON line ({url, token?}) once listening; stops on SIGTERM.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { startBenchServer } from './bench-server.js';

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
  const server = await startBenchServer(dataDir);
  console.log(JSON.stringify({ url: server.url, token: server.token }));
  process.on('SIGTERM', () => {
    void server.stop().then(() => process.exit(0));
  });
} else {
  console.error('usage: v1-target.ts hello | galley <data-dir>');
  process.exit(2);
}
