// The HTTP platform on every store kind: sign-in and tokens over a PostgreSQL store as well.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

describeStores('HTTP authentication', (t) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({}, { store: t.store, clock: t.clock });
  });
  afterAll(() => s.close());

  it('authenticates tokens and refuses them once expired', async () => {
    const auth = { authorization: `Bearer ${s.token}` };
    expect((await fetch(`${s.url}/api/v1/x`, { headers: auth })).status).toBe(404);
    t.clock.advanceSeconds(90 * 86_400);
    try {
      expect((await fetch(`${s.url}/api/v1/x`, { headers: auth })).status).toBe(401);
    } finally {
      t.clock.advanceSeconds(-90 * 86_400);
    }
  });

  it('signs in and issues a token from the screen session', async () => {
    const login = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.org', password: s.password }),
    });
    const { csrf_token } = (await login.json()) as { csrf_token: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const issued = await fetch(`${s.url}/auth/tokens`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf_token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(issued.status).toBe(201);
    const { token } = (await issued.json()) as { token: string };
    expect(
      (await fetch(`${s.url}/api/v2/x`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(404);
  });
});
