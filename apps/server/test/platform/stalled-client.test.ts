// A client that stops reading a big answer is cut once its connection has been idle for the idle
// timeout (2 minutes; shortened here), so the answer's bytes do not stay in memory for ever.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, projectFolder, startV1Server, zipForm, zipOf } from '../v1/helpers.js';
import type { ProjectBody, TestServer } from '../v1/helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

it('closes the connection of a client that stopped reading, and goes on serving others', async () => {
  expect(s.server.server.timeout).toBe(120_000);
  // A folder whose ZIP is far more than the socket buffers hold.
  const big = `/* ${randomBytes(12 * 1024 * 1024).toString('base64')} */\n`;
  const created = await call<ProjectBody>(s, 'POST', '/projects/folder', {
    token: s.token,
    client: 'setup',
    form: zipForm(zipOf(projectFolder('Big', { 'big.css': big }))),
  });
  expect(created.status).toBe(201);
  s.server.server.timeout = 300;

  const { hostname, port } = new URL(s.url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined); // the cut may come as a reset
  await once(socket, 'connect');
  socket.pause(); // reads nothing from here on
  socket.write(
    `GET /api/v1/projects/${created.body.id}/folder HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${s.token}\r\n\r\n`,
  );
  await once(socket, 'close');
  expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
}, 60_000);
