// The server builds its requests and answers with the app's prototypes in place, so Express never
// changes a live object's prototype (see http/express-messages.ts). Over real HTTP on loopback.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let t: TestServer;
const arrived: Array<{ req: object | null; res: object | null }> = [];

beforeAll(async () => {
  t = await startTestServer();
  // Runs before the app does: what the request and answer were built with.
  t.server.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    arrived.push({
      req: Object.getPrototypeOf(req) as object | null,
      res: Object.getPrototypeOf(res) as object | null,
    });
  });
});
afterAll(() => t.close());

describe('requests and answers built for the app', () => {
  it('carry the app’s prototypes from the start, and Express’s methods work on them', async () => {
    const { app } = t.server.app;
    arrived.length = 0;
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    const read = await fetch(`${t.url}/api/v1/projects`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    // req.get, res.json, res.set, req.app: Express's own request and answer methods.
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await read.json()).toMatchObject({ projects: [] });
    expect(arrived).toHaveLength(2);
    for (const seen of arrived) {
      expect(seen.req).toBe(app.request);
      expect(seen.res).toBe(app.response);
    }
    expect((app.request as unknown as { app: unknown }).app).toBe(app);
  });
});
