// Bad input on every endpoint: 4xx problem details with a stable code, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../platform/harness.js';
import type { Answer, CallOptions, DraftBody, TestServer } from './helpers.js';
import { call, createProject, projectFolder, zipForm, zipOf } from './helpers.js';

const JSON_LIMIT = 32 * 1024;
let s: TestServer;
let id: string;
let page: string;
/** A second project that nobody locks: X-Editor-Client is judged there (423 comes before 400). */
const free = { id: '', page: '' };
let session: Record<string, string>;

beforeAll(async () => {
  s = await startTestServer({ rateLimitPerMinute: 1_000_000, jsonLimitBytes: JSON_LIMIT });
  const locked = await createProject(s, s.token);
  id = locked.id;
  page = locked.pageIds['index.html']!;
  const unlocked = await createProject(s, s.token);
  free.id = unlocked.id;
  free.page = unlocked.pageIds['index.html']!;
  await send('PUT', `/projects/${id}/lock`, { json: { kind: 'agent', label: 'bad input' } });
  const login = await fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.org', password: s.password }),
  });
  session = {
    cookie: login.headers.get('set-cookie')!.split(';')[0]!,
    'x-csrf-token': ((await login.json()) as { csrf_token: string }).csrf_token,
  };
});
afterAll(() => s.close());

function send(method: string, path: string, options: CallOptions = {}) {
  return call(s, method, path, { token: s.token, client: 'bad-input', ...options });
}

/** A 4xx problem with the expected status and code. */
function expectProblem(answer: Answer, status: number, code?: string) {
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  expect(answer.status).toBe(status);
  if (code) expect(answer.body.code).toBe(code);
}

const draftToken = async () =>
  (await send('GET', `/pages/${page}/draft`)).body as unknown as DraftBody;

interface JsonEndpoint {
  name: string;
  method: string;
  path: (project?: typeof free) => string;
  /** A body of the right shape, to spoil one field at a time. */
  valid: () => Promise<Record<string, unknown>>;
  wrongTypes: Record<string, unknown>;
  session?: boolean;
}

const endpoints: JsonEndpoint[] = [
  {
    name: 'PATCH /projects/{id}',
    method: 'PATCH',
    path: (p = { id, page }) => `/projects/${p.id}`,
    valid: () => Promise.resolve({ title: 'ok' }),
    wrongTypes: { title: 42 },
  },
  {
    name: 'PUT /projects/{id}/members',
    method: 'PUT',
    path: (p = { id, page }) => `/projects/${p.id}/members`,
    valid: () => Promise.resolve({ email: 'ada@example.org', role: 'owner' }),
    wrongTypes: { email: 'not-an-email', role: 'admin' },
  },
  {
    name: 'PUT /projects/{id}/lock',
    method: 'PUT',
    path: (p = { id, page }) => `/projects/${p.id}/lock`,
    valid: () => Promise.resolve({ kind: 'agent', label: 'x' }),
    wrongTypes: { kind: 'robot', label: ['x'] },
  },
  {
    name: 'POST /pages/{page}/operations',
    method: 'POST',
    path: (p = { id, page }) => `/pages/${p.page}/operations`,
    valid: async () => ({
      draft_token: (await draftToken()).draft_token,
      operation: { kind: 'remove', target: '#intro' },
    }),
    wrongTypes: { operation: { kind: 'explode', target: '#intro' }, outline: 'yes' },
  },
  {
    name: 'PUT /pages/{page}/operations',
    method: 'PUT',
    path: (p = { id, page }) => `/pages/${p.page}/operations`,
    valid: async () => ({
      draft_token: (await draftToken()).draft_token,
      commit_id: crypto.randomUUID(),
    }),
    wrongTypes: { commit_id: 'not-a-uuid', draft_token: 7 },
  },
  {
    name: 'PUT /projects/{id}/history',
    method: 'PUT',
    path: (p = { id, page }) => `/projects/${p.id}/history`,
    valid: () => Promise.resolve({ direction: 'undo', revision: 1 }),
    wrongTypes: { direction: 'back', revision: 'one' },
  },
  {
    name: 'POST /projects/{id}/confirmations',
    method: 'POST',
    path: (p = { id, page }) => `/projects/${p.id}/confirmations`,
    valid: () => Promise.resolve({ note: 'n' }),
    wrongTypes: { note: 5 },
    session: true,
  },
];

describe('JSON bodies', () => {
  for (const endpoint of endpoints) {
    it(endpoint.name, async () => {
      const base: CallOptions = endpoint.session ? { token: null, headers: session } : {};
      const go = (options: CallOptions, project?: typeof free) =>
        send(endpoint.method, endpoint.path(project), {
          ...base,
          ...options,
          headers: { ...base.headers, ...options.headers },
        });
      const raw = (body: string, contentType = 'application/json') =>
        go({ raw: { body, contentType } });

      expectProblem(await raw('{"title": '), 400, 'malformed_json');
      expectProblem(await raw('[1, 2'), 400, 'malformed_json');
      const valid = await endpoint.valid();
      const wrong = await go({ json: { ...valid, ...endpoint.wrongTypes } });
      expectProblem(wrong, 422, 'validation_failed');
      expect(Object.keys(wrong.body.errors ?? {}).sort()).toEqual(
        Object.keys(endpoint.wrongTypes)
          .sort()
          .map((k) => (k === 'operation' ? 'operation.kind' : k)),
      );
      const unknown = await go({ json: { ...(await endpoint.valid()), surprise: true } });
      expectProblem(unknown, 422, 'validation_failed');
      expect(unknown.body.errors).toEqual({ surprise: ['unknown field'] });
      expectProblem(await go({ json: [] }), 422, 'validation_failed');
      // A JSON scalar is JSON of the wrong type.
      for (const scalar of [null, 5, true, 'text']) {
        const answer = await go({ json: scalar });
        expectProblem(answer, 422, 'validation_failed');
        expect(answer.body.errors).toHaveProperty(['']);
      }
      // JSON is UTF-8: other bytes are not JSON.
      const latin1 = new Uint8Array([
        ...new TextEncoder().encode('{"title": "caf'),
        0xe9,
        0x22,
        0x7d,
      ]);
      expectProblem(
        await go({ raw: { body: latin1, contentType: 'application/json' } }),
        400,
        'malformed_json',
      );
      // Fields named like the properties every object inherits are unknown fields like any other.
      for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        const sent = JSON.stringify(await endpoint.valid()).replace(/^\{/, `{"${name}": 1, `);
        const answer = await raw(sent);
        expectProblem(answer, 422, 'validation_failed');
        expect(answer.body.errors).toEqual({ [name]: ['unknown field'] });
      }
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const nested = await raw(`{"deep": ${deep}}`);
      expectProblem(nested, 422, 'validation_failed');
      expect(nested.body.errors).toEqual({ '': ['JSON nested deeper than 512 levels'] });
      const big = JSON.stringify({ ...(await endpoint.valid()), pad: 'x'.repeat(JSON_LIMIT) });
      expectProblem(await raw(big), 413, 'body_too_large');
      if (!endpoint.session) {
        // A session without a body is fine for confirmations (`{note?}`); elsewhere 400.
        expectProblem(await go({}), 400, 'body_required');
        expectProblem(
          await raw('title=x', 'application/x-www-form-urlencoded'),
          400,
          'body_required',
        );
      }
      for (const client of [null, '', 'has space', 'x'.repeat(65), 'ünï']) {
        const answer = await go({ client, json: await endpoint.valid() }, free);
        expectProblem(answer, 400, 'invalid_editor_client');
      }
    });
  }
});

describe('uploads', () => {
  for (const [method, path, name] of [
    ['POST', () => '/projects/folder', '/projects/folder'],
    ['POST', () => `/projects/${free.id}/folder`, '/projects/{id}/folder'],
  ] as const) {
    it(`${method} ${name}`, async () => {
      const form = (field: string, bytes: Uint8Array) => {
        const f = new FormData();
        f.set(field, new Blob([bytes]), 'x.zip');
        return f;
      };
      const notZip = await send(method, path(), {
        form: form('zip', new TextEncoder().encode('PK?')),
      });
      expectProblem(notZip, 422, 'folder_check_failed');
      expect(notZip.body.checks?.archive).toBe('failed');
      const truncated = zipOf(projectFolder()).slice(0, 200);
      expectProblem(await send(method, path(), { form: form('zip', truncated) }), 422);
      const otherField = await send(method, path(), { form: form('file', zipOf(projectFolder())) });
      expectProblem(otherField, 422, 'validation_failed');
      expectProblem(await send(method, path(), { json: { zip: 'x' } }), 400, 'invalid_multipart');
      for (const name of ['note', 'constructor', '__proto__', 'toString']) {
        const extra = zipForm(zipOf(projectFolder()));
        extra.set(name, 'hello');
        const withField = await send(method, path(), { form: extra });
        expectProblem(withField, 422, 'validation_failed');
        expect(withField.body.errors).toEqual({ [name]: ['unknown field'] });
        // A file under such a name is refused too, and the service keeps answering.
        const withFile = zipForm(zipOf(projectFolder()));
        withFile.set(name, new Blob([zipOf(projectFolder())]), 'other.zip');
        const refused = await send(method, path(), { form: withFile });
        expectProblem(refused, 422, 'validation_failed');
        expect(refused.body.errors).toEqual({ [name]: ['unexpected file'] });
      }
      const twoZips = zipForm(zipOf(projectFolder()));
      twoZips.append('zip', new Blob([zipOf(projectFolder())]), 'second.zip');
      const second = await send(method, path(), { form: twoZips });
      expectProblem(second, 422, 'validation_failed');
      expect(second.body.errors).toEqual({ zip: ['only one file is accepted'] });
      const noClient = await send(method, path(), {
        client: null,
        form: zipForm(zipOf(projectFolder())),
      });
      expectProblem(noClient, 400, 'invalid_editor_client');
    });
  }

  it('refuses a ZIP over 100 MiB with 413, counted while streaming', async () => {
    const huge = new Uint8Array(100 * 1024 * 1024 + 1);
    const answer = await send('POST', '/projects/folder', { form: zipForm(huge) });
    expectProblem(answer, 413, 'body_too_large');
  }, 60_000);
});

describe('paths and queries', () => {
  it('answers 404 for ids that cannot be ids, 422 for bad queries, never 500', async () => {
    for (const path of [
      '/projects/nope',
      '/projects/prj_AAAAAAAAAAAAAAAAAAAA',
      '/projects/prj_00000000000000000000',
      `/projects/${id}/folder/0`,
      `/projects/${id}/folder/abc`,
      `/projects/${id}/confirmations/cnf_x`,
      '/pages/pg_00000000000000000000/draft',
      `/projects/${id}/nothing`,
    ]) {
      const answer = await send('GET', path);
      expect([path, answer.status]).toEqual([path, 404]);
    }
    for (const path of [`/projects/${id}/members/abc`, `/projects/${id}/members/999999`]) {
      const answer = await send('DELETE', path);
      expect([path, answer.status]).toEqual([path, 404]);
    }
    for (const query of [
      'per_page=abc',
      'per_page=-1',
      'per_page=1.5',
      // Numbers in decimal digits only.
      'per_page=0x10',
      'per_page=1e1',
      'per_page=%205',
      'per_page=%2B5',
      'per_page=2.0',
      'page=',
      'page=e30',
      'x=1',
      'constructor=1',
      '__proto__=1',
      'toString=1',
    ]) {
      for (const list of [
        '/projects',
        `/projects/${id}/pages`,
        `/projects/${id}/history`,
        `/projects/${id}/confirmations`,
      ]) {
        const answer = await send('GET', `${list}?${query}`);
        expect([list, query, answer.status]).toEqual([list, query, 422]);
      }
    }
    // A path that does not decode is a 400, still a problem.
    expectProblem(await send('GET', '/pages/%E0%A4%A/draft'), 400);
    const undo = await send('POST', `/pages/${page}/draft/undo`, { client: 'no such client' });
    expectProblem(undo, 423, 'lock_held');
  });
});

describe('draft undo and redo take no body', () => {
  it('pass with none or {}, refuse anything else before deciding (400, 422, then 409)', async () => {
    for (const direction of ['undo', 'redo']) {
      const path = `/pages/${page}/draft/${direction}`;
      const nothing = `nothing_to_${direction}`;
      expectProblem(await send('POST', path), 409, nothing);
      expectProblem(await send('POST', path, { json: {} }), 409, nothing);
      const fields = await send('POST', path, { json: { x: 1 } });
      expectProblem(fields, 422, 'validation_failed');
      expect(fields.body.errors).toEqual({ x: ['unknown field'] });
      expectProblem(
        await send('POST', path, { raw: { body: '{bad', contentType: 'application/json' } }),
        400,
        'malformed_json',
      );
      expectProblem(
        await send('POST', path, { raw: { body: 'x=1', contentType: 'text/plain' } }),
        400,
        'body_required',
      );
    }
    // A body refused leaves the draft as it was: the operation is still there to undo.
    const { draft_token } = await draftToken();
    const operated = await send('POST', `/pages/${page}/operations`, {
      json: { draft_token, operation: { kind: 'remove', target: '#intro' } },
    });
    expect(operated.status).toBe(200);
    expectProblem(await send('POST', `/pages/${page}/draft/undo`, { json: { x: 1 } }), 422);
    const undone = await send('POST', `/pages/${page}/draft/undo`, { json: {} });
    expect(undone.status).toBe(200);
  });
});
