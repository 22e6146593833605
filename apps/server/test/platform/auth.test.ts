import { randomBytes, scryptSync } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function expectUnauthorized(res: Response, detail: RegExp) {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({
    status: 401,
    code: 'unauthorized',
    type: 'urn:galley:problem:unauthorized',
  });
  expect(body.detail).toMatch(detail);
}

describe('bearer tokens', () => {
  it('401 when the token is missing', async () => {
    await expectUnauthorized(await fetch(`${s.url}/api/v1/projects`), /Bearer/);
  });

  it('401 when the header or token is malformed', async () => {
    await expectUnauthorized(
      await fetch(`${s.url}/api/v1/projects`, { headers: { authorization: 'Basic abc' } }),
      /malformed/,
    );
    await expectUnauthorized(
      await fetch(`${s.url}/api/v1/projects`, { headers: bearer('glly_tooshort') }),
      /malformed/,
    );
  });

  it('401 for two Authorization headers, even when either alone would do', async () => {
    const { hostname, port } = new URL(s.url);
    const { status, body } = await new Promise<{ status?: number; body: unknown }>(
      (resolve, reject) => {
        // Node's client sends a raw header list as it is (so with Host), both headers too.
        const headers = [
          'Host',
          `${hostname}:${port}`,
          'Authorization',
          `Bearer ${s.token}`,
          'authorization',
          `Bearer ${s.token}`,
        ];
        request({ hostname, port, path: '/api/v1/projects', headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
        })
          .on('error', reject)
          .end();
      },
    );
    expect([status, body]).toMatchObject([401, { code: 'unauthorized' }]);
    expect((body as { detail: string }).detail).toMatch(/malformed/);
    // One of them alone is let in.
    expect((await fetch(`${s.url}/api/v1/projects`, { headers: bearer(s.token) })).status).toBe(
      200,
    );
  });

  it('reads the scheme in any case, with one or more spaces before the token (RFC 6750)', async () => {
    for (const authorization of [
      `Bearer ${s.token}`,
      `bearer  ${s.token}`,
      `BEARER   ${s.token}`,
    ]) {
      const res = await fetch(`${s.url}/api/v1/projects`, { headers: { authorization } });
      expect([authorization.slice(0, 9), res.status]).toEqual([authorization.slice(0, 9), 200]);
    }
    await expectUnauthorized(
      await fetch(`${s.url}/api/v1/projects`, { headers: { authorization: `Bearer\t${s.token}` } }),
      /malformed/,
    );
  });

  it('401 when the token is unknown', async () => {
    await expectUnauthorized(
      await fetch(`${s.url}/api/v2/assets`, { headers: bearer(`glly_${'x'.repeat(43)}`) }),
      /not known/,
    );
  });

  it('401 once the token expired (injected clock), and not before', async () => {
    const { account } = await s.addAccount('expiring@example.org');
    const { token } = await s.store.tokens.issue({ accountNumber: account.accountNumber, days: 1 });
    // Authenticated, so the unknown route answers 404 rather than 401.
    expect((await fetch(`${s.url}/api/v1/nothing-here`, { headers: bearer(token) })).status).toBe(
      404,
    );
    s.clock.advanceSeconds(86_400);
    try {
      await expectUnauthorized(
        await fetch(`${s.url}/api/v1/nothing-here`, { headers: bearer(token) }),
        /expired/,
      );
    } finally {
      s.clock.advanceSeconds(-86_400);
    }
  });

  it('401 once the token is revoked', async () => {
    const { account, token } = await s.addAccount('revoked@example.org');
    expect((await fetch(`${s.url}/api/v1/x`, { headers: bearer(token) })).status).toBe(404);
    const [record] = await s.store.tokens.list(account.accountNumber);
    await s.store.tokens.revoke({ accountNumber: account.accountNumber, idOrPrefix: record!.id });
    await expectUnauthorized(
      await fetch(`${s.url}/api/v1/x`, { headers: bearer(token) }),
      /revoked/,
    );
  });

  it('notes last_used_at', async () => {
    const { account, token } = await s.addAccount('used@example.org');
    await fetch(`${s.url}/api/v1/x`, { headers: bearer(token) });
    const [record] = await s.store.tokens.list(account.accountNumber);
    expect(record?.lastUsedAt).toBe(s.clock.now().toISOString().replace('Z', '+00:00'));
  });
});

async function login(email: string, password: string) {
  const res = await fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = res.headers.get('set-cookie') ?? '';
  return { res, cookie: cookie.split(';')[0] ?? '', setCookie: cookie };
}

describe('screen sessions', () => {
  it('logs in with e-mail and password and sets a strict HttpOnly cookie', async () => {
    const { res, setCookie } = await login('ada@example.org', s.password);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { csrf_token: string; account: unknown };
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.account).toEqual({ account_number: 1001, email: 'ada@example.org', name: 'Ada' });
    expect(setCookie).toMatch(/^galley_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toMatch(/Secure/); // the base URL is http
  });

  it('replaces an older scrypt hash by Argon2id at the next successful login', async () => {
    const { account } = await s.addAccount('old-hash@example.org', 'Old');
    // The hash an earlier release stored: scrypt at N=2^14, r=8, p=1.
    const salt = randomBytes(16);
    const key = scryptSync('old secret', salt, 64, { N: 16384, r: 8, p: 1 });
    const scryptHash = [
      'scrypt',
      16384,
      8,
      1,
      salt.toString('base64url'),
      key.toString('base64url'),
    ];
    const storedHash = () =>
      s.store.db
        .selectFrom('accounts')
        .select('password_hash')
        .where('account_number', '=', account.accountNumber)
        .executeTakeFirstOrThrow()
        .then((row) => row.password_hash);
    await s.store.db
      .updateTable('accounts')
      .set({ password_hash: scryptHash.join('$') })
      .where('account_number', '=', account.accountNumber)
      .execute();
    expect((await login('old-hash@example.org', 'wrong')).res.status).toBe(401);
    expect(await storedHash()).toBe(scryptHash.join('$')); // a failed login changes nothing
    expect((await login('old-hash@example.org', 'old secret')).res.status).toBe(200);
    expect(await storedHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The new hash takes the same password, and only it.
    expect((await login('old-hash@example.org', 'old secret')).res.status).toBe(200);
    expect((await login('old-hash@example.org', 'wrong')).res.status).toBe(401);
  });

  it('401 invalid_credentials for a wrong password or an unknown e-mail', async () => {
    for (const [email, password] of [
      ['ada@example.org', 'wrong'],
      ['nobody@example.org', 'x'],
    ] as const) {
      const { res, setCookie } = await login(email, password);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'invalid_credentials' });
      expect(setCookie).toBe('');
    }
  });

  it('422 for unknown fields and 400 for a missing body at login', async () => {
    const extra = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.c', password: 'x', remember: true }),
    });
    expect(extra.status).toBe(422);
    expect(await extra.json()).toMatchObject({
      code: 'validation_failed',
      errors: { remember: ['unknown field'] },
    });
    const empty = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'body_required' });
  });

  it('reads a sign-in body up to 16 KiB only: 413 beyond, before anything else', async () => {
    const padded = (bytes: number) => {
      const body = { email: 'a@b.c', password: 'x', pad: '' };
      body.pad = 'p'.repeat(bytes - JSON.stringify(body).length);
      return JSON.stringify(body);
    };
    const send = (body: string) =>
      fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const within = await send(padded(16 * 1024));
    expect([within.status, ((await within.json()) as { code: string }).code]).toEqual([
      422,
      'validation_failed',
    ]);
    const over = await send(padded(16 * 1024 + 1));
    expect([over.status, ((await over.json()) as { code: string }).code]).toEqual([
      413,
      'body_too_large',
    ]);
  });

  it('needs X-CSRF-Token on writes (403 csrf_failed), and the session reaches the API', async () => {
    const { res, cookie } = await login('ada@example.org', s.password);
    const { csrf_token } = (await res.json()) as { csrf_token: string };
    const session = await fetch(`${s.url}/auth/session`, { headers: { cookie } });
    expect(await session.json()).toMatchObject({
      csrf_token,
      account: { email: 'ada@example.org' },
    });
    // A read needs no CSRF token: authenticated, so an unknown route is 404.
    expect((await fetch(`${s.url}/api/v1/x`, { headers: { cookie } })).status).toBe(404);

    const noHeader = await fetch(`${s.url}/auth/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noHeader.status).toBe(403);
    expect(await noHeader.json()).toMatchObject({ code: 'csrf_failed', status: 403 });
    const wrong = await fetch(`${s.url}/api/v1/x`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': 'nope' },
    });
    expect(wrong.status).toBe(403);

    const issued = await fetch(`${s.url}/auth/tokens`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf_token, 'content-type': 'application/json' },
      body: JSON.stringify({ days: 30 }),
    });
    expect(issued.status).toBe(201);
    const token = (await issued.json()) as {
      token: string;
      id: string;
      prefix: string;
      expires_at: string;
    };
    expect(token.token.startsWith(token.prefix)).toBe(true);
    const location = issued.headers.get('location')!;
    expect(location).toBe(`${s.url}/auth/tokens/${token.id}`);
    const one = await fetch(location, { headers: { cookie } });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      id: token.id,
      prefix: token.prefix,
      revoked_at: null,
    });
    const missing = await fetch(`${s.url}/auth/tokens/tok_nosuchtoken`, { headers: { cookie } });
    expect(missing.status).toBe(404);

    // A token is valid 90 days at most (decisions §2): 90 is issued, anything longer is 422.
    const issue = (body: unknown) =>
      fetch(`${s.url}/auth/tokens`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': csrf_token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const longest = await issue({ days: 90 });
    expect(longest.status).toBe(201);
    const ninety = (await longest.json()) as { expires_at: string; created_at: string };
    expect(Date.parse(ninety.expires_at) - Date.parse(ninety.created_at)).toBe(90 * 86_400_000);
    const byDefault = (await (await issue({})).json()) as { expires_at: string };
    expect(byDefault.expires_at).toBe(ninety.expires_at);
    for (const days of [91, 365, 0, 1.5, '30']) {
      const refused = await issue({ days });
      expect([days, refused.status]).toEqual([days, 422]);
      const problem = (await refused.json()) as { code: string; errors: Record<string, string[]> };
      expect(problem.code).toBe('validation_failed');
      expect(Object.keys(problem.errors)).toEqual(['days']);
    }
    expect((await fetch(`${s.url}/api/v1/x`, { headers: bearer(token.token) })).status).toBe(404);

    const list = (await (await fetch(`${s.url}/auth/tokens`, { headers: { cookie } })).json()) as {
      tokens: Array<Record<string, unknown>>;
    };
    expect(list.tokens.find((t) => t.id === token.id)).toMatchObject({
      prefix: token.prefix,
      last_used_at: expect.any(String) as string,
      revoked_at: null,
    });
    expect(JSON.stringify(list)).not.toContain(token.token);

    // The list is paged like the interfaces' lists: newest first, every token exactly once.
    type Page = { tokens: Array<{ id: string }>; next_page_url: string | null };
    const seen: string[] = [];
    let next: string | null = `${s.url}/auth/tokens?per_page=2`;
    while (next) {
      const page = (await (await fetch(next, { headers: { cookie } })).json()) as Page;
      expect(page.tokens.length).toBeLessThanOrEqual(2);
      seen.push(...page.tokens.map((t) => t.id));
      next = page.next_page_url;
    }
    expect(seen).toEqual(list.tokens.map((t) => t.id));
    expect(seen.length).toBeGreaterThan(2);
    const forged = Buffer.from(JSON.stringify({ after: ['not a time', 'tok_x'] })).toString(
      'base64url',
    );
    for (const query of [
      'per_page=0',
      'per_page=201',
      'per_page=0x10',
      'page=garbage',
      `page=${forged}`,
      'surprise=1',
    ]) {
      const refused = await fetch(`${s.url}/auth/tokens?${query}`, { headers: { cookie } });
      expect([query, refused.status]).toEqual([query, 422]);
    }

    const revoke = await fetch(`${s.url}/auth/tokens/${token.id}`, {
      method: 'DELETE',
      headers: { cookie, 'x-csrf-token': csrf_token },
    });
    expect(revoke.status).toBe(204);
    expect((await fetch(`${s.url}/api/v1/x`, { headers: bearer(token.token) })).status).toBe(401);
    const again = await fetch(`${s.url}/auth/tokens/${token.id}`, {
      method: 'DELETE',
      headers: { cookie, 'x-csrf-token': csrf_token },
    });
    expect(again.status).toBe(404);

    const logout = await fetch(`${s.url}/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf_token },
    });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await fetch(`${s.url}/auth/session`, { headers: { cookie } })).status).toBe(401);
  });

  it('keeps token pages to sessions: a bearer token gets 403 session_required', async () => {
    const res = await fetch(`${s.url}/auth/tokens`, { headers: bearer(s.token) });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'session_required' });
  });

  it('ends sessions at their expiry (injected clock)', async () => {
    const { cookie } = await login('ada@example.org', s.password);
    s.clock.advanceSeconds(s.config.sessionTtlSeconds);
    try {
      expect((await fetch(`${s.url}/auth/session`, { headers: { cookie } })).status).toBe(401);
    } finally {
      s.clock.advanceSeconds(-s.config.sessionTtlSeconds);
    }
  });
});
