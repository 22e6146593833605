// Every endpoint × owner, editor, viewer, non-member, no token, expired token, revoked token:
// the exact status. Owners and editors first do what the endpoint needs (the lock, a draft).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Answer,
  CallOptions,
  ConfirmationBody,
  DraftBody,
  OperationBody,
  TestServer,
} from './helpers.js';
import {
  call,
  caller,
  createProject,
  projectFolder,
  startV1Server,
  zipForm,
  zipOf,
} from './helpers.js';

type Role = 'owner' | 'editor' | 'viewer' | 'nonMember';
type Act = <T>(method: string, path: string, options?: CallOptions) => Promise<Answer<T>>;

interface Fixture {
  id: string;
  page: string;
  confirmation: string;
  extraMember: string;
}

interface Endpoint {
  method: string;
  path: (f: Fixture) => string;
  /** The request options; `prepare` runs first for owners and editors and may supply them. */
  options?: (f: Fixture) => CallOptions;
  prepare?: (act: Act, f: Fixture) => Promise<CallOptions | void>;
  expect: Record<Role, number>;
}

const lockJson = { json: { kind: 'agent', label: 'matrix' } };
const lock = async (act: Act, f: Fixture) => {
  await act('PUT', `/projects/${f.id}/lock`, lockJson);
};
const draftToken = async (act: Act, f: Fixture) => {
  await lock(act, f);
  return (await act<DraftBody>('GET', `/pages/${f.page}/draft`)).body.draft_token;
};
const operated = async (act: Act, f: Fixture) => {
  const op = await act<OperationBody>('POST', `/pages/${f.page}/operations`, {
    json: {
      draft_token: await draftToken(act, f),
      operation: { kind: 'remove', target: '#intro' },
    },
  });
  return op.body.draft_token;
};
const anyOp = (token = 'dt_x') => ({
  json: { draft_token: token, operation: { kind: 'remove', target: '#intro' } },
});
const upload = () => ({ form: zipForm(zipOf(projectFolder('Up'))) });

const read = { owner: 200, editor: 200, viewer: 200, nonMember: 404 };
const edit = (ok: number) => ({ owner: ok, editor: ok, viewer: 403, nonMember: 404 });
const owned = (ok: number) => ({ owner: ok, editor: 403, viewer: 403, nonMember: 404 });

const endpoints: Endpoint[] = [
  { method: 'GET', path: () => '/projects', expect: { ...read, nonMember: 200 } },
  {
    method: 'POST',
    path: () => '/projects/folder',
    options: upload,
    expect: { owner: 201, editor: 201, viewer: 201, nonMember: 201 },
  },
  { method: 'GET', path: (f) => `/projects/${f.id}`, expect: read },
  {
    method: 'PATCH',
    path: (f) => `/projects/${f.id}`,
    options: () => ({ json: { title: 'T' } }),
    expect: edit(200),
  },
  { method: 'DELETE', path: (f) => `/projects/${f.id}`, expect: owned(204) },
  { method: 'GET', path: (f) => `/projects/${f.id}/folder`, expect: read },
  { method: 'GET', path: (f) => `/projects/${f.id}/folder/1`, expect: read },
  { method: 'POST', path: (f) => `/projects/${f.id}/folder`, options: upload, expect: edit(200) },
  { method: 'GET', path: (f) => `/projects/${f.id}/pages`, expect: read },
  { method: 'GET', path: (f) => `/projects/${f.id}/members`, expect: read },
  {
    method: 'PUT',
    path: (f) => `/projects/${f.id}/members`,
    options: () => ({ json: { email: 'xtra@example.org', role: 'editor' } }),
    expect: owned(200),
  },
  {
    method: 'DELETE',
    path: (f) => `/projects/${f.id}/members/${f.extraMember}`,
    expect: owned(200),
  },
  {
    method: 'PUT',
    path: (f) => `/projects/${f.id}/lock`,
    options: () => lockJson,
    expect: edit(200),
  },
  { method: 'DELETE', path: (f) => `/projects/${f.id}/lock`, prepare: lock, expect: edit(204) },
  { method: 'GET', path: (f) => `/pages/${f.page}/draft`, prepare: lock, expect: edit(200) },
  {
    method: 'DELETE',
    path: (f) => `/pages/${f.page}/draft`,
    prepare: async (act, f) => void (await draftToken(act, f)),
    expect: edit(204),
  },
  {
    method: 'POST',
    path: (f) => `/pages/${f.page}/operations`,
    options: () => anyOp(),
    prepare: async (act, f) => anyOp(await draftToken(act, f)),
    expect: edit(200),
  },
  {
    method: 'POST',
    path: (f) => `/pages/${f.page}/draft/undo`,
    prepare: async (act, f) => void (await operated(act, f)),
    expect: edit(200),
  },
  {
    method: 'POST',
    path: (f) => `/pages/${f.page}/draft/redo`,
    prepare: async (act, f) => {
      await operated(act, f);
      await act('POST', `/pages/${f.page}/draft/undo`);
    },
    expect: edit(200),
  },
  {
    method: 'PUT',
    path: (f) => `/pages/${f.page}/operations`,
    options: () => ({ json: { draft_token: 'dt_x', commit_id: randomUUID() } }),
    prepare: async (act, f) => ({
      json: { draft_token: await operated(act, f), commit_id: randomUUID() },
    }),
    expect: edit(200),
  },
  { method: 'GET', path: (f) => `/projects/${f.id}/history`, expect: read },
  {
    method: 'PUT',
    path: (f) => `/projects/${f.id}/history`,
    options: () => ({ json: { direction: 'undo', revision: 2 } }),
    expect: edit(200),
  },
  { method: 'GET', path: (f) => `/projects/${f.id}/confirmations/latest`, expect: read },
  { method: 'GET', path: (f) => `/projects/${f.id}/confirmations`, expect: read },
  { method: 'GET', path: (f) => `/projects/${f.id}/confirmations/${f.confirmation}`, expect: read },
  {
    method: 'POST',
    path: (f) => `/projects/${f.id}/confirmations`,
    options: () => ({ json: {} }),
    // With an API token even an owner gets 403 (confirmation_requires_person).
    expect: { owner: 403, editor: 403, viewer: 403, nonMember: 404 },
  },
];

let s: TestServer;
const tokens = {} as Record<Role | 'expired' | 'revoked', string>;
let screenCookie: { cookie: string; csrf: string };
const ids = {} as Record<'editor' | 'viewer' | 'extra', string>;

beforeAll(async () => {
  s = await startV1Server();
  tokens.owner = s.token;
  for (const role of ['editor', 'viewer', 'nonMember'] as const) {
    tokens[role] = (await s.addAccount(`${role.toLowerCase()}@example.org`, role)).token;
  }
  const extra = await s.addAccount('extra@example.org', 'Extra');
  await s.addAccount('xtra@example.org', 'Xtra');
  ids.extra = String(extra.account.accountNumber);
  const expired = await s.store.tokens.issue({ accountNumber: s.account.accountNumber });
  await s.store.db
    .updateTable('api_tokens')
    .set({ expires_at: '2000-01-01T00:00:00.000+00:00' })
    .where('id', '=', expired.record.id)
    .execute();
  tokens.expired = expired.token;
  const revoked = await s.store.tokens.issue({ accountNumber: s.account.accountNumber });
  await s.store.tokens.revoke({
    accountNumber: s.account.accountNumber,
    idOrPrefix: revoked.record.id,
  });
  tokens.revoked = revoked.token;
  const login = await fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.org', password: s.password }),
  });
  screenCookie = {
    cookie: login.headers.get('set-cookie')!.split(';')[0]!,
    csrf: ((await login.json()) as { csrf_token: string }).csrf_token,
  };
});
afterAll(() => s.close());

/** A project with an editor, a viewer, an extra member, a saved change and a confirmation. */
async function fixture(): Promise<Fixture> {
  const { id, pageIds } = await createProject(s, s.token);
  const owner = caller(s, s.token, 'setup');
  for (const [email, role] of [
    ['editor@example.org', 'editor'],
    ['viewer@example.org', 'viewer'],
    ['extra@example.org', 'viewer'],
  ]) {
    await owner('PUT', `/projects/${id}/members`, { json: { email, role } });
  }
  await owner('PATCH', `/projects/${id}`, { json: { title: 'Renamed' } });
  const confirmed = await call<ConfirmationBody>(s, 'POST', `/projects/${id}/confirmations`, {
    client: 'screen',
    headers: { cookie: screenCookie.cookie, 'x-csrf-token': screenCookie.csrf },
    json: {},
  });
  return {
    id,
    page: pageIds['index.html']!,
    confirmation: confirmed.body.id,
    extraMember: ids.extra,
  };
}

describe('authorization matrix', () => {
  let shared: Fixture;
  beforeAll(async () => {
    shared = await fixture();
  });

  for (const endpoint of endpoints) {
    const name = `${endpoint.method} ${endpoint.path({ id: '{id}', page: '{page}', confirmation: '{cnf}', extraMember: '{user}' })}`;
    it(name, async () => {
      const seen: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const role of ['owner', 'editor', 'viewer', 'nonMember'] as const) {
        // Owners and editors may change the project: each gets a fresh one.
        const f = role === 'owner' || role === 'editor' ? await fixture() : shared;
        const act = caller(s, tokens[role], `matrix-${role}`);
        const prepared =
          role === 'owner' || role === 'editor' ? await endpoint.prepare?.(act, f) : undefined;
        const options = prepared ?? endpoint.options?.(f) ?? {};
        const answer = await act(endpoint.method, endpoint.path(f), options);
        seen[role] = answer.status;
        wanted[role] = endpoint.expect[role];
      }
      for (const who of ['none', 'expired', 'revoked'] as const) {
        const token = who === 'none' ? null : tokens[who];
        const answer = await call(s, endpoint.method, endpoint.path(shared), {
          token,
          client: 'matrix',
          ...(endpoint.options?.(shared) ?? {}),
        });
        seen[who] = answer.status;
        wanted[who] = 401;
        expect(answer.body.code).toBe('unauthorized');
      }
      expect(seen).toEqual(wanted);
    });
  }
});
