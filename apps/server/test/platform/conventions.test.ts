import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ jsonLimitBytes: 1024 });
});
afterAll(() => s.close());

const PROBLEM_KEYS = ['code', 'detail', 'status', 'title', 'type'];

async function expectProblem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(
    Object.keys(body)
      .filter((k) => PROBLEM_KEYS.includes(k))
      .sort(),
  ).toEqual(PROBLEM_KEYS);
  expect(body).toMatchObject({ status, code, type: `urn:galley:problem:${code}` });
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
  return body;
}

describe('every response', () => {
  const cases: Array<[string, string, RequestInit]> = [
    ['healthz', '/healthz', {}],
    ['unknown route', '/no/such/route', {}],
    ['unauthenticated API', '/api/v1/projects', {}],
    ['OpenAPI document', '/api/v2/openapi.json', {}],
    [
      'malformed JSON',
      '/auth/login',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' },
    ],
  ];
  for (const [name, path, init] of cases) {
    it(`carries Cache-Control: private, no-store and an X-Request-Id: ${name}`, async () => {
      const res = await fetch(`${s.url}${path}`, init);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-powered-by')).toBeNull();
    });
  }

  it("carries the REST security headers on /api/ answers and helmet's set elsewhere", async () => {
    const api = await fetch(`${s.url}/api/v1/projects`);
    expect(api.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    expect(api.headers.get('strict-transport-security')).toBeNull(); // served over plain HTTP
    const page = await fetch(`${s.url}/login`);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('echoes a sent X-Request-Id and replaces an unusable one', async () => {
    const echoed = await fetch(`${s.url}/healthz`, {
      headers: { 'x-request-id': 'trace-42.a:b_c' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42.a:b_c');
    const replaced = await fetch(`${s.url}/healthz`, {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('answers', () => {
  it('GET /healthz is 200 {status: ok} without credentials', async () => {
    const res = await fetch(`${s.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('unknown routes are 404 problems', async () => {
    await expectProblem(await fetch(`${s.url}/nothing`), 404, 'not_found');
    await expectProblem(
      await fetch(`${s.url}/api/v2/nothing`, { headers: { authorization: `Bearer ${s.token}` } }),
      404,
      'not_found',
    );
  });

  it('a route asked with a method it does not take is 405 with Allow', async () => {
    const authorization = `Bearer ${s.token}`;
    for (const [method, path, allow] of [
      ['DELETE', '/api/v1/projects', 'GET, HEAD'],
      ['PUT', '/api/v2/blobs', 'POST'],
      ['POST', '/api/v1/projects/prj_unknown', 'GET, HEAD, PATCH, DELETE'],
      // A file path keeps its slashes: still the file route's path.
      ['DELETE', '/api/v2/assets/ast_unknown/files/canvas/main.png', 'GET, HEAD'],
    ] as const) {
      const res = await fetch(`${s.url}${path}`, { method, headers: { authorization } });
      const body = await expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')!.split(', ').sort()).toEqual(allow.split(', ').sort());
      expect(body.detail).toContain(path);
    }
    // Without credentials the answer is 401 as for every /api route, before the route is sought.
    expect((await fetch(`${s.url}/api/v1/projects`, { method: 'DELETE' })).status).toBe(401);
  });

  it('paths are case-sensitive: another case of a route is a 404', async () => {
    const authorization = `Bearer ${s.token}`;
    const api = await fetch(`${s.url}/api/v1/projects`, { headers: { authorization } });
    expect(api.status).toBe(200);
    for (const path of ['/API/v1/projects', '/api/V1/projects', '/api/v1/Projects', '/Login']) {
      await expectProblem(
        await fetch(`${s.url}${path}`, { headers: { authorization } }),
        404,
        'not_found',
      );
    }
  });

  it('requests the HTTP parser refuses are problems too, and the connection closes', async () => {
    /** Sends `request` raw and reads everything until the server closes the connection. */
    const raw = async (request: string) => {
      const { hostname, port } = new URL(s.url);
      const socket = connect(Number(port), hostname);
      socket.end(request);
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      return { head, body: JSON.parse(body) as Record<string, unknown> };
    };
    for (const [request, status, code] of [
      ['FOO / HTTP/1.1\r\nhost: x\r\n\r\n', 400, 'bad_request'],
      ['GET / HTTP/1.1\r\nBad Header\r\n\r\n', 400, 'bad_request'],
      ['GET /api/v2/assets HTTP/1.1\r\n\r\n', 400, 'bad_request'],
      ['GET /api/v1/projects HTTP/1.1\r\nconnection: keep-alive\r\n\r\n', 400, 'bad_request'],
      [`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nhost: x\r\n\r\n`, 431, 'headers_too_large'],
      [
        'PATCH /api/v1/projects HTTP/1.1\r\nhost: x\r\nexpect: 200-ok\r\ncontent-length: 2\r\n\r\n{}',
        417,
        'expectation_failed',
      ],
    ] as const) {
      const { head, body } = await raw(request);
      expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head.toLowerCase()).toContain('content-type: application/problem+json');
      expect(head.toLowerCase()).toContain('cache-control: private, no-store');
      expect(head.toLowerCase()).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
      expect(head).toContain("Content-Security-Policy: default-src 'none'; frame-ancestors 'none'");
      expect(head).toContain('X-Content-Type-Options: nosniff');
      expect(body).toMatchObject({ status, code, type: `urn:galley:problem:${code}` });
    }
    // A request the parser read (only its expectation is refused) echoes the caller's id.
    const { head } = await raw(
      'POST /api/v2/assets HTTP/1.1\r\nhost: x\r\nx-request-id: mine-417\r\nexpect: foo\r\ncontent-length: 2\r\n\r\n{}',
    );
    expect(head).toMatch(/^HTTP\/1.1 417 /);
    expect(head.toLowerCase()).toContain('\r\nx-request-id: mine-417\r\n');
    // So does one without Host; HTTP/1.0 needs none.
    const noHost = await raw('GET /healthz HTTP/1.1\r\nx-request-id: mine-400\r\n\r\n');
    expect(noHost.head.toLowerCase()).toContain('\r\nx-request-id: mine-400\r\n');
    expect(noHost.body.detail).toMatch(/Host/);
    expect((await raw('GET /healthz HTTP/1.0\r\n\r\n')).head).toMatch(/^HTTP\/1.1 200 /);
  });

  it('a body declared beyond what is read before a 413 is 413 at once, before it is sent', async () => {
    /** Sends a request head and one byte of its body, keeps the socket open, reads the answer. */
    const declared = async (head: string) => {
      const { hostname, port } = new URL(s.url);
      const socket = connect(Number(port), hostname);
      socket.write(`${head}\r\n\r\n{`);
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    };
    const auth = `authorization: Bearer ${s.token}\r\nx-editor-client: big`;
    for (const head of [
      `POST /auth/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 200000000`,
      `POST /api/v1/projects/folder HTTP/1.1\r\nhost: x\r\n${auth}\r\ncontent-type: multipart/form-data; boundary=b\r\ncontent-length: 900000000`,
    ]) {
      const answer = await declared(head);
      expect(answer).toMatch(/^HTTP\/1.1 413 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(answer).toContain('"code":"body_too_large"');
    }
  });

  it('a client that sends a whole body over the limit before reading hears its 413', async () => {
    /**
     * Sends `size` bytes of JSON in full on a raw socket (declared, or chunked), then reads the
     * answer. A connection closed mid-send fails it (EPIPE, ECONNRESET).
     */
    const sendWhole = async (size: number, declared: boolean) => {
      const { hostname, port } = new URL(s.url);
      const socket = connect(Number(port), hostname);
      const failed = new Promise<never>((_, reject) => socket.on('error', reject));
      let answer = '';
      const complete = new Promise<void>((resolve) => {
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          answer += chunk;
          const [head = '', body = ''] = answer.split('\r\n\r\n');
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
          if (body.length >= length) resolve();
        });
      });
      const write = async (data: string | Buffer) => {
        if (!socket.write(data)) await Promise.race([once(socket, 'drain'), failed]);
      };
      const framing = declared ? `content-length: ${size}` : 'transfer-encoding: chunked';
      const sending = (async () => {
        await write(
          `POST /auth/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`,
        );
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        for (let sent = 0; sent < size; sent += chunk.length) {
          const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
          if (declared) await write(part);
          else
            await write(
              Buffer.concat([
                Buffer.from(`${part.length.toString(16)}\r\n`),
                part,
                Buffer.from('\r\n'),
              ]),
            );
        }
        if (!declared) await write('0\r\n\r\n');
      })();
      await Promise.race([sending, failed]);
      await Promise.race([complete, failed]);
      socket.destroy();
      return answer;
    };
    for (const [size, declared] of [
      [20 * 1024 * 1024, true],
      [100 * 1024 * 1024, false],
    ] as const) {
      const answer = await sendWhole(size, declared);
      expect(answer).toMatch(/^HTTP\/1.1 413 /);
      expect(answer).toContain('"code":"body_too_large"');
    }
  });

  it('malformed JSON is 400 malformed_json; JSON of the wrong type is 422', async () => {
    const login = (body: string | Uint8Array) =>
      fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    for (const body of ['{', '{"email": }', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])]) {
      await expectProblem(await login(body), 400, 'malformed_json');
    }
    for (const body of ['null', '"text"', '5']) {
      await expectProblem(await login(body), 422, 'validation_failed');
    }
  });

  it('a body that is not JSON or is empty is 400 body_required', async () => {
    for (const init of [
      { headers: { 'content-type': 'text/plain' }, body: '{"email":"a","password":"b"}' },
      { headers: { 'content-type': 'application/json' }, body: '' },
      {},
    ]) {
      await expectProblem(
        await fetch(`${s.url}/auth/login`, { method: 'POST', ...init }),
        400,
        'body_required',
      );
    }
  });

  it('wrong types are 422 with errors per field', async () => {
    const res = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 5 }),
    });
    const body = await expectProblem(res, 422, 'validation_failed');
    expect(Object.keys(body.errors as object).sort()).toEqual(['email', 'password']);
  });

  it('a JSON body over the limit is 413 body_too_large', async () => {
    const res = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2000) }),
    });
    await expectProblem(res, 413, 'body_too_large');
  });
});

describe('rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ rateLimitPerMinute: 3 });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After and RateLimit headers past the limit, per token', async () => {
    const auth = { authorization: `Bearer ${limited.token}` };
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await fetch(`${limited.url}/api/v1/x`, { headers: auth });
      statuses.push(last.status);
      if (i < 3) await last.arrayBuffer();
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
    const res = last!;
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('ratelimit-limit')).toBe('3');
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(res.headers.get('ratelimit-policy')).toBe('3;w=60');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    await expectProblem(res, 429, 'rate_limited');

    // Another token has its own budget.
    const other = await limited.addAccount('other@example.org');
    const fresh = await fetch(`${limited.url}/api/v1/x`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(fresh.status).toBe(404);
    expect(fresh.headers.get('ratelimit-remaining')).toBe('2');
  });

  it('limits requests without a valid credential per address, /healthz excepted', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/nothing`)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect((await fetch(`${limited.url}/healthz`)).status).toBe(200);
  });
});
