// Confirmed versions: a person confirms on the screen (session + CSRF); integrations download
// the ZIP and compare its SHA-256 with `sha256`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sha256Hex } from '@galley/store';
import type {
  ConfirmationBody,
  ConfirmationsBody,
  ProblemBody,
  ProjectBody,
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

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(() => s.close());

/** Logs in on the screen: the session cookie and the CSRF token for writes. */
async function screen(email: string, password: string) {
  const res = await fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const { csrf_token } = (await res.json()) as { csrf_token: string };
  return <T = ProblemBody>(method: string, path: string, json?: unknown) =>
    call<T>(s, method, path, {
      client: 'screen-1',
      headers: { cookie, 'x-csrf-token': csrf_token },
      ...(json !== undefined ? { json } : {}),
    });
}

it('confirms on the screen only, stores the exact ZIP, and tracks unconfirmed changes', async () => {
  const { id } = await createProject(s, s.token, 'Confirm me');
  const api = caller(s, s.token, 'integration');
  const person = await screen('ada@example.org', s.password);

  const none = await api('GET', `/projects/${id}/confirmations/latest`);
  expect([none.status, none.body.code]).toEqual([404, 'no_confirmation']);
  const byToken = await api('POST', `/projects/${id}/confirmations`, { json: {} });
  expect([byToken.status, byToken.body.code]).toEqual([403, 'confirmation_requires_person']);

  const first = await person<ConfirmationBody>('POST', `/projects/${id}/confirmations`, {
    note: 'Ready for print',
  });
  expect(first.status).toBe(201);
  expect(first.body).toEqual({
    id: expect.stringMatching(/^cnf_[0-9a-z]{20}$/) as unknown,
    version: 1,
    revision: 1,
    sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    note: 'Ready for print',
    confirmed_at: expect.stringMatching(/\+00:00$/) as unknown,
    confirmed_by: { name: 'Ada' },
    download_url: `${s.url}/api/v1/projects/${id}/folder/1`,
    has_unconfirmed_changes: false,
  });
  const location = first.headers.get('location')!;
  expect(location).toBe(`${s.url}/api/v1/projects/${id}/confirmations/${first.body.id}`);
  expect((await api<ConfirmationBody>('GET', location)).body).toEqual(first.body);

  // The integration's check: the downloaded ZIP's SHA-256 equals `sha256`.
  const zip = await api('GET', first.body.download_url);
  expect(zip.status).toBe(200);
  expect(sha256Hex(zip.bytes)).toBe(first.body.sha256);
  expect(zip.headers.get('x-content-sha256')).toBe(first.body.sha256);
  expect(zip.headers.get('etag')).toBe(`"${first.body.sha256}"`);
  // It is the current folder's ZIP, byte for byte.
  expect(sha256Hex((await api('GET', `/projects/${id}/folder`)).bytes)).toBe(first.body.sha256);

  // A rename changes project.json: an unconfirmed change.
  await api('PATCH', `/projects/${id}`, { json: { title: 'Renamed' } });
  const latest = await api<ConfirmationBody>('GET', `/projects/${id}/confirmations/latest`);
  expect(latest.body).toMatchObject({ version: 1, has_unconfirmed_changes: true });
  // Undoing back to the confirmed content makes it false again.
  const undone = await api<ProjectBody>('PUT', `/projects/${id}/history`, {
    json: { direction: 'undo', revision: 2 },
  });
  expect(undone.body.revision).toBe(3);
  expect(
    (await api<ConfirmationBody>('GET', `/projects/${id}/confirmations/latest`)).body
      .has_unconfirmed_changes,
  ).toBe(false);

  // Confirming the same state again is a new version with the same sha256; no body is fine.
  const second = await person<ConfirmationBody>('POST', `/projects/${id}/confirmations`);
  expect(second.body).toMatchObject({
    version: 2,
    revision: 3,
    sha256: first.body.sha256,
    note: null,
  });
  await api('PATCH', `/projects/${id}`, { json: { title: 'Third' } });
  const third = await person<ConfirmationBody>('POST', `/projects/${id}/confirmations`, {});
  expect(third.body).toMatchObject({ version: 3, revision: 4, has_unconfirmed_changes: false });
  expect(third.body.sha256).not.toBe(first.body.sha256);

  const page1 = await api<ConfirmationsBody>('GET', `/projects/${id}/confirmations?per_page=2`);
  expect(page1.body.confirmations.map((c) => [c.version, c.has_unconfirmed_changes])).toEqual([
    [3, false],
    [2, true],
  ]);
  expect(page1.body.next_page_url).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/projects\/.+per_page=2/,
  );
  const page2 = await api<ConfirmationsBody>('GET', page1.body.next_page_url!);
  expect(page2.body.confirmations.map((c) => c.version)).toEqual([1]);
  expect(page2.body.next_page_url).toBeNull();

  // Version 1's bytes are kept as published, whatever happened since.
  const again = await api('GET', `/projects/${id}/folder/1`);
  expect(sha256Hex(again.bytes)).toBe(first.body.sha256);
  expect((await api('GET', `/projects/${id}/folder/9`)).status).toBe(404);
});

it('refuses confirmations by viewers, and writes without the CSRF token', async () => {
  const { id } = await createProject(s, s.token);
  const viewer = await s.addAccount('vic-view@example.org', 'Vic');
  await caller(s, s.token, 'owner')('PUT', `/projects/${id}/members`, {
    json: { email: viewer.account.email, role: 'viewer' },
  });
  const vic = await screen(viewer.account.email, viewer.password);
  const refused = await vic('POST', `/projects/${id}/confirmations`, {});
  expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
  const noCsrf = await call(s, 'POST', `/projects/${id}/confirmations`, {
    client: 'x',
    headers: { cookie: 'galley_session=forged' },
    json: {},
  });
  expect(noCsrf.status).toBe(401);
});

it('refuses a confirmation while another client holds the lock, and needs no lock of its own', async () => {
  const { id } = await createProject(s, s.token);
  const person = await screen('ada@example.org', s.password);
  const agent = caller(s, s.token, 'agent-1');
  await agent('PUT', `/projects/${id}/lock`, { json: { kind: 'agent', label: 'fixing links' } });
  const held = await person<ProblemBody & { lock?: unknown }>(
    'POST',
    `/projects/${id}/confirmations`,
    {},
  );
  expect([held.status, held.body.code]).toEqual([423, 'lock_held']);
  expect(held.body.lock).toMatchObject({ kind: 'agent', label: 'fixing links' });
  const list = await agent<ConfirmationsBody>('GET', `/projects/${id}/confirmations`);
  expect(list.body.confirmations).toEqual([]);
  // The screen's own lock (the same X-Editor-Client) is no obstacle, and none is needed.
  await agent('DELETE', `/projects/${id}/lock`);
  await person('PUT', `/projects/${id}/lock`, { kind: 'screen', label: 'editing' });
  expect((await person('POST', `/projects/${id}/confirmations`, {})).status).toBe(201);
  await person('DELETE', `/projects/${id}/lock`);
  expect((await person('POST', `/projects/${id}/confirmations`, {})).status).toBe(201);
});

it('renaming back to the confirmed title gives the confirmed folder again, byte for byte', async () => {
  // project.json as a person might write it: compact, tab-indented pages, keys in their order.
  const folder = projectFolder('Posters');
  const pages = [
    { file: 'index.html', title: 'Home', public_url: '/' },
    { file: 'about.html', title: '', public_url: '/about.html' },
  ];
  const written = `{"format": 1, "title": "Posters",\n\t"media": {"id": "web", "version": 1},\n\t"pages": ${JSON.stringify(pages)}}\n`;
  folder.set('project.json', new TextEncoder().encode(written));
  const api = caller(s, s.token, 'integration');
  const created = await api<ProjectBody>('POST', '/projects/folder', {
    form: zipForm(zipOf(folder)),
  });
  const { id } = created.body;
  const person = await screen('ada@example.org', s.password);
  const confirmed = await person<ConfirmationBody>('POST', `/projects/${id}/confirmations`, {});

  await api('PATCH', `/projects/${id}`, { json: { title: 'Posters “draft”' } });
  const renamed = await api('GET', `/projects/${id}/folder`);
  expect(sha256Hex(renamed.bytes)).not.toBe(confirmed.body.sha256);
  await api('PATCH', `/projects/${id}`, { json: { title: 'Posters' } });

  const latest = await api<ConfirmationBody>('GET', `/projects/${id}/confirmations/latest`);
  expect(latest.body).toMatchObject({ version: 1, has_unconfirmed_changes: false });
  expect(sha256Hex((await api('GET', `/projects/${id}/folder`)).bytes)).toBe(confirmed.body.sha256);
});
