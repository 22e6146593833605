// Input a store cannot keep, refused alike on SQLite and PostgreSQL (decisions §1: never a 500):
// U+0000 in request text (PostgreSQL refuses it, SQLite would keep it) and whole numbers past
// PostgreSQL's `integer` (2^31 − 1), which it refuses to compare where SQLite finds nothing.
import { randomUUID } from 'node:crypto';
import { writeZip } from '@galley/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../../../../packages/store/test/stores.js';
import { call, createProject, projectFolder, zipForm, zipOf } from '../v1/helpers.js';
import type { Answer } from '../v1/helpers.js';
import { clientOf, createImage, createProduction, key, png } from '../v2/helpers.js';
import type { Call } from '../v2/helpers.js';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

const TOO_BIG = 2 ** 31;
const NUL = 'must not contain U+0000';

/** A 422 `validation_failed` whose `errors` are exactly `errors`. */
function expectInvalid(res: { status: number; body: unknown }, errors: Record<string, unknown>) {
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ code: 'validation_failed', status: 422, errors });
  expect(Object.keys((res.body as { errors: object }).errors).sort()).toEqual(
    Object.keys(errors).sort(),
  );
}

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describeStores('input the stores cannot keep', (t) => {
  let s: TestServer;
  let v2: Call;
  let project: string;
  const v1 = <T = Answer['body']>(method: string, path: string, json?: unknown) =>
    call<T>(s, method, path, { token: s.token, client: 'input-test', json });

  beforeAll(async () => {
    s = await startTestServer(
      { rateLimitPerMinute: 1_000_000 },
      { store: t.store, clock: t.clock },
    );
    v2 = clientOf(s);
    project = (await createProject(s, s.token)).id;
  });
  afterAll(() => s.close());

  it('refuses U+0000 in JSON bodies of both interfaces, naming the field', async () => {
    expectInvalid(
      await v2('POST', '/assets', {
        json: {
          request_key: key(),
          kind: 'image',
          title: 'a\u0000b',
          files: [{ path: 'a.svg', text: '<svg xmlns="http://www.w3.org/2000/svg">\u0000</svg>' }],
        },
      }),
      { title: [NUL], 'files.0.text': [NUL] },
    );
    // A project title is also kept in project.json, whose check refuses any control character.
    expectInvalid(await v1('PATCH', `/projects/${project}`, { title: 'a\u0000b' }), {
      title: ['must not contain control characters', NUL],
    });
    expectInvalid(await v1('PATCH', `/projects/${project}`, { title: 'a\tb' }), {
      title: ['must not contain control characters'],
    });
    // A key holding U+0000 is named too (and, being unknown, refused as such as well).
    expectInvalid(await v1('PATCH', `/projects/${project}`, { title: 'x', 'a\u0000': 1 }), {
      'a\u0000': ['unknown field', NUL],
    });
    expectInvalid(
      await v1('PUT', `/projects/${project}/lock`, { kind: 'agent', label: 'a\u0000b' }),
      { label: [NUL] },
    );
    const login = (email: string, password: string) =>
      fetch(`${s.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    const refused = await login('office\u0000@galley.local', 'x');
    expectInvalid({ status: refused.status, body: await refused.json() }, { email: [NUL] });
    // Confirming is a person's action: through a screen session.
    const session = await login('ada@example.org', s.password);
    const { csrf_token } = (await session.json()) as { csrf_token: string };
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    expectInvalid(
      await call(s, 'POST', `/projects/${project}/confirmations`, {
        client: 'input-test',
        headers: { cookie, 'x-csrf-token': csrf_token },
        json: { note: 'a\u0000b' },
      }),
      { note: [NUL] },
    );
    // Nothing was stored: the project kept its title and no lock was taken.
    expect((await v1<{ title: string }>('GET', `/projects/${project}`)).body.title).toBe('Shop');
    const other = { token: s.token, client: 'another-client' };
    const taken = await call(s, 'PUT', `/projects/${project}/lock`, {
      ...other,
      json: { kind: 'agent', label: 'free' },
    });
    expect(taken.status).toBe(200);
    expect((await call(s, 'DELETE', `/projects/${project}/lock`, other)).status).toBe(204);
  });

  it('refuses U+0000 in query strings, cursors and multipart text fields', async () => {
    expectInvalid(await v2('GET', '/assets?q=a%00b'), { q: [NUL] });
    expectInvalid(await v2('GET', '/assets?medium=web&a%00=1'), {
      'a\u0000': ['unknown field', NUL],
    });
    expectInvalid(await v2('GET', `/assets?page=${cursor(['updated', 'a\u0000', 'ast_x'])}`), {
      page: ['not a page cursor of this list'],
    });
    const form = new FormData();
    form.set('request_key', randomUUID());
    form.set('kind', 'image');
    form.set('title', 'a\u0000b');
    form.set('file', new Blob([png(4, 4)], { type: 'image/png' }), 'a.png');
    expectInvalid(await v2('POST', '/assets', { body: form }), { title: [NUL] });
  });

  it('answers 404 for a path parameter holding U+0000', async () => {
    const image = await createImage(v2, png(4, 4));
    expect((await v2('GET', `/assets/${image.id}/files/a%00b.png`)).status).toBe(404);
  });

  it('keeps U+0000 inside file contents given as JSON: they are file bytes, escaped', async () => {
    const copy = { title: 'T\u0000', blocks: [{ id: 'a', text: 'a\u0000b' }] };
    const created = await v2('POST', '/assets', {
      json: {
        request_key: key(),
        kind: 'data',
        title: 'Copy',
        files: [{ path: 'c.json', json: copy, schema: 'svc://schemas/copy/1' }],
      },
    });
    expect(created.status).toBe(201);
    const { id } = created.body.asset;
    const file = await v2<string>('GET', `/assets/${id}/files/c.json`);
    expect(file.bytes.includes(0)).toBe(false);
    expect(JSON.parse(file.bytes.toString('utf8'))).toEqual(copy);
    const revised = await v2('POST', `/assets/${id}/revisions`, {
      json: {
        request_key: key(),
        base_revision: 1,
        put: [{ path: 'd.json', json: { blocks: [{ id: 'b', text: '\u0000' }] } }],
      },
    });
    expect(revised.status).toBe(422); // d.json has no schema: refused for that, not for U+0000
    expect(Object.keys(revised.body.errors ?? {})).toEqual(['put.0']);
  });

  it('fails the project check for a control character in the title of project.json', async () => {
    const upload = (zip: Uint8Array) =>
      call(s, 'POST', '/projects/folder', { token: s.token, client: 'c', form: zipForm(zip) });
    const folder = await upload(zipOf(projectFolder('T\u0000x')));
    expect(folder.status).toBe(422);
    expect(folder.body).toMatchObject({
      code: 'folder_check_failed',
      checks: { project: 'failed' },
      violations: [{ code: 'project.title_control', actual: 'U+0000' }],
    });
    // A plain site's title comes from its <title> (U+0000 there makes the page binary, so
    // site.read): the converted folder is checked the same way.
    const page = (title: string) =>
      writeZip(new Map([['index.html', new TextEncoder().encode(`<title>${title}</title><p>Hi`)]]));
    const converted = await upload(page('a\u0001b'));
    expect(converted.status).toBe(422);
    expect(converted.body).toMatchObject({
      violations: [
        {
          code: 'project.title_control',
          message: 'project.json /title contains the control character U+0001.',
        },
      ],
    });
    const binary = await upload(page('a\u0000b'));
    expect(binary.status).toBe(422);
    expect(binary.body.violations).toEqual([expect.objectContaining({ code: 'site.read' })]);
  });

  it('bounds revision and version numbers at 2^31 − 1: 404 in the path, 422 elsewhere', async () => {
    const image = await createImage(v2, png(4, 4));
    const id = image.id;
    expectInvalid(await v2('GET', `/assets/${id}?revision=${TOO_BIG}`), {
      revision: [expect.stringContaining('2147483647')],
    });
    expect((await v2('GET', `/assets/${id}?revision=${TOO_BIG - 1}`)).status).toBe(404);
    expectInvalid(await v2('GET', `/assets/${id}/files/image.png?revision=${TOO_BIG}`), {
      revision: [expect.any(String)],
    });
    const erase = await v2('DELETE', `/assets/${id}/revisions/${TOO_BIG}/content`, {
      json: { request_key: key() },
    });
    expect(erase.status).toBe(404);
    expectInvalid(
      await v2('POST', `/assets/${id}/duplicates`, {
        json: { request_key: key(), title: 'Twin', revision: TOO_BIG },
      }),
      { revision: [expect.any(String)] },
    );
    const production = await createProduction(v2);
    expectInvalid(
      await v2('POST', `/assets/${production.id}/copies`, {
        json: {
          request_key: key(),
          base_revision: 1,
          source: { asset: id, revision: TOO_BIG },
          to: 'references/logo/',
        },
      }),
      { 'source.revision': [expect.any(String)] },
    );
    expectInvalid(
      await v2('POST', `/assets/${production.id}/revisions`, {
        json: { request_key: key(), base_revision: Number.MAX_SAFE_INTEGER },
      }),
      { base_revision: [expect.any(String)] },
    );
    expectInvalid(await v2('GET', `/assets/${id}/revisions?page=${cursor(['r', TOO_BIG])}`), {
      page: [expect.any(String)],
    });
  });

  it('answers 404 for version and member numbers past 2^31 − 1 in v1 paths', async () => {
    for (const n of [TOO_BIG, Number.MAX_SAFE_INTEGER])
      expect((await v1('GET', `/projects/${project}/folder/${n}`)).status).toBe(404);
    expect((await v1('DELETE', `/projects/${project}/members/${TOO_BIG}`)).status).toBe(404);
    expectInvalid(
      await v1('PUT', `/projects/${project}/history`, { direction: 'undo', revision: TOO_BIG }),
      { revision: [expect.any(String)] },
    );
  });
});
