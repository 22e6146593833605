// Stopping the server ends, even while a client keeps sending on its kept-alive connection: the
// answer in flight says `Connection: close`, and the connection closes once it is out.
import { Agent, get } from 'node:http';
import { expect, it } from 'vitest';
import { startTestServer } from './harness.js';
import { holdNext } from './hold.js';

/** Requests the client would go on sending if the server let it. */
const MAX_REQUESTS = 2_000;

it('stops while a client keeps its kept-alive connection busy', async () => {
  const s = await startTestServer();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ask = () =>
    new Promise<string | undefined>((resolve, reject) => {
      const headers = { authorization: `Bearer ${s.token}` };
      get(`${s.url}/api/v1/projects`, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers.connection));
      }).on('error', reject);
    });
  const answers: Array<string | undefined> = [];
  for (let n = 0; n < 3; n++) answers.push(await ask());
  // The client sends one request after another; the stop comes while one is in flight.
  const held = holdNext(s.store.projects, 'listFor');
  const client = (async () => {
    while (answers.length < MAX_REQUESTS) {
      try {
        answers.push(await ask());
      } catch {
        return; // refused: the server has stopped
      }
    }
  })();
  await held.reached;
  const stopped = s.close();
  held.release();
  await stopped;
  await client;
  agent.destroy();
  expect(answers).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'close']);
});
