// GET/POST /assets, GET/PATCH /assets/{id}, schemas, ownership and the service fonts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTime } from '@galley/store';
import type { Asset, Call, TestServer } from './helpers.js';
import {
  clientOf,
  createImage,
  createProduction,
  key,
  png,
  startTestServer,
  uploadBlob,
} from './helpers.js';

let s: TestServer;
let call: Call;
beforeAll(async () => {
  s = await startTestServer();
  call = clientOf(s);
});
afterAll(() => s.close());

interface ListAnswer {
  assets: Array<
    Pick<Asset, 'id' | 'kind' | 'title' | 'state' | 'owner' | 'updated_at'> & {
      revision: { number: number; ref: string; inspection: Record<string, unknown> };
    }
  >;
  next_page_url: string | null;
}
const list = (query = '', who: Call = call) => who<ListAnswer>('GET', `/assets${query}`);
const titles = async (query: string, who: Call = call) =>
  (await list(query, who)).body.assets.map((a) => a.title);

describe('service fonts', () => {
  it("are seeded on first start, owned by system:svc, in every account's listing", async () => {
    const other = clientOf(s, (await s.addAccount('fonts@example.org')).token);
    const fonts = await list('?kind=font&sort=title', other);
    expect(fonts.status).toBe(200);
    expect(fonts.body.assets.map((a) => [a.title, a.owner])).toEqual([
      ['Inter Bold (SIL OFL 1.1)', 'system:svc'],
      ['Inter Regular (SIL OFL 1.1)', 'system:svc'],
      ['Merriweather Bold (SIL OFL 1.1)', 'system:svc'],
      ['Merriweather Regular (SIL OFL 1.1)', 'system:svc'],
    ]);
    const inter = await other('GET', '/assets/ast_svc_inter_400');
    expect(inter.body.asset.revision.files).toEqual([
      expect.objectContaining({ path: 'inter-latin-400-normal.woff2', media_type: 'font/woff2' }),
    ]);
    expect(inter.body.asset.revision.inspection.verdict).toBe('passed');
    const file = await other('GET', '/assets/ast_svc_inter_400/files/inter-latin-400-normal.woff2');
    expect(file.status).toBe(200);
    expect(file.bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
  });

  it('answer 403 to every write', async () => {
    const id = 'ast_svc_merriweather_400';
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['PATCH', `/assets/${id}`, { title: 'Mine' }],
      [
        'POST',
        `/assets/${id}/revisions`,
        { base_revision: 1, put: [{ path: 'a.woff2', text: 'x' }] },
      ],
      [
        'POST',
        `/assets/${id}/copies`,
        { base_revision: 1, source: { asset: id }, to: 'references/' },
      ],
      ['PUT', `/assets/${id}/state`, { state: 'archived' }],
      ['DELETE', `/assets/${id}`, {}],
      ['DELETE', `/assets/${id}/revisions/1/content`, {}],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(method, path, { json: { request_key: key(), ...body } });
      expect([method, path, res.status, res.body.code]).toEqual([
        method,
        path,
        403,
        'asset_read_only',
      ]);
    }
    expect((await call('GET', `/assets/${id}`)).body.asset.title).toBe(
      'Merriweather Regular (SIL OFL 1.1)',
    );
  });
});

describe('GET /assets', () => {
  let other: Call;
  beforeAll(async () => {
    const { store } = s;
    other = clientOf(s, (await s.addAccount('lister@example.org')).token);
    for (const title of ['Zebra banner', 'apple social', 'Mango 50%']) {
      const [w, h] = title.includes('banner')
        ? [300, 250]
        : title.includes('social')
          ? [1080, 1080]
          : [10, 10];
      await createImage(other, png(w, h), title);
      s.clock.advanceSeconds(1);
    }
    await createProduction(other, { title: 'Leader prod', medium: 'leaderboard' });
    s.clock.advanceSeconds(1);
    const failing = await createProduction(other, {
      title: 'Broken prod',
      files: [{ path: 'canvas/wrong.png', blob: await uploadBlob(other, png(20, 20)) }],
    });
    expect(failing.revision.inspection.verdict).toBe('failed');
    await store.assets.setState(failing.id, 'archived');
  });

  it('lists active assets, newest first, with only verdict and media of the inspection', async () => {
    const res = await list('?kind=image,production', other);
    expect(res.status).toBe(200);
    expect(res.body.assets.map((a) => a.title)).toEqual([
      'Leader prod',
      'Mango 50%',
      'apple social',
      'Zebra banner',
    ]);
    const item = res.body.assets[3]!;
    expect(Object.keys(item).sort()).toEqual([
      'id',
      'kind',
      'owner',
      'revision',
      'state',
      'title',
      'updated_at',
    ]);
    expect(item.revision).toEqual({
      number: 1,
      ref: `${item.id}@1`,
      inspection: {
        verdict: 'passed',
        media: [expect.objectContaining({ id: 'banner', basis: 'canvas' })],
      },
    });
    expect(res.body.next_page_url).toBeNull();
  });

  it('filters by q, kind, medium, state and verdict, and sorts by title', async () => {
    expect(await titles('?q=AN&kind=image', other)).toEqual(['Mango 50%', 'Zebra banner']);
    expect(await titles('?q=50%25', other)).toEqual(['Mango 50%']);
    expect(await titles('?kind=production', other)).toEqual(['Leader prod']);
    expect(await titles('?medium=social', other)).toEqual(['apple social']);
    expect(await titles('?medium=leaderboard', other)).toEqual(['Leader prod']);
    expect(await titles('?state=archived', other)).toEqual(['Broken prod']);
    expect(await titles('?state=archived&verdict=passed', other)).toEqual([]);
    expect(await titles('?verdict=failed&state=archived', other)).toEqual(['Broken prod']);
    expect(await titles('?sort=title&kind=image', other)).toEqual([
      'apple social',
      'Mango 50%',
      'Zebra banner',
    ]);
    expect(await titles('?state=deleted', other)).toEqual([]);
  });

  it('pages with an absolute next_page_url that keeps the filters', async () => {
    const seen: string[] = [];
    let url: string | null =
      `${s.url}/api/v2/assets?kind=image,production,font&sort=title&per_page=3`;
    while (url) {
      expect(url.startsWith(`${s.url}/api/v2/assets?`)).toBe(true);
      const res = await fetch(url, { headers: { authorization: `Bearer ${s.token}` } });
      const page = (await res.json()) as ListAnswer;
      seen.push(...page.assets.map((a) => a.title));
      url = page.next_page_url;
    }
    expect(seen).toEqual(await titles('?kind=image,production,font&sort=title&per_page=200'));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('refuses bad filters, page sizes and cursors with 422', async () => {
    for (const query of [
      '?per_page=0',
      '?per_page=201',
      '?per_page=x',
      '?medium=nope',
      '?medium=BANNER',
      '?medium=',
      '?per_page=1e1',
      `?page=${Buffer.from(JSON.stringify(['updated', 'yesterday', 'ast_x'])).toString('base64url')}`,
      '?state=gone',
      '?kind=video',
      '?sort=size',
      '?verdict=ok',
      '?page=nonsense',
      '?unknown=1',
    ]) {
      const res = await list(query);
      expect([query, res.status, res.body.code]).toEqual([query, 422, 'validation_failed']);
      expect(res.body.errors).toBeDefined();
    }
    const first = await list('?per_page=1&sort=title');
    const cursor = new URL(first.body.next_page_url!).searchParams.get('page')!;
    expect((await list(`?per_page=1&sort=updated&page=${cursor}`)).status).toBe(422);
  });

  it("never shows another account's assets", async () => {
    const mine = await titles('?per_page=200&kind=image,production');
    expect(mine).not.toContain('Zebra banner');
  });
});

describe('POST /assets and GET /assets/{id}', () => {
  it('registers an image from a blob: 201, Location, revision 1 and its inspection', async () => {
    const sha256 = await uploadBlob(call, png(728, 90));
    const res = await call('POST', '/assets', {
      json: {
        request_key: key(),
        kind: 'image',
        title: '  Top banner ',
        files: [{ path: 'top.png', blob: sha256 }],
      },
    });
    expect(res.status).toBe(201);
    const { asset } = res.body;
    expect(res.headers.get('location')).toBe(`${s.url}/api/v2/assets/${asset.id}`);
    expect(asset.id).toMatch(/^ast_[a-z0-9]{20}$/);
    expect(asset).toMatchObject({
      kind: 'image',
      title: 'Top banner',
      state: 'active',
      owner: `user:${s.account.accountNumber}`,
      revision: {
        number: 1,
        ref: `${asset.id}@1`,
        files: [{ path: 'top.png', media_type: 'image/png', size: png(728, 90).length, sha256 }],
        erased: false,
        inspection: {
          verdict: 'passed',
          media: [{ id: 'leaderboard', version: 1, basis: 'canvas' }],
          contracts: { 'media-contract': '1.0', 'svc-contract': '1.0' },
          inspected_at: isoTime(s.clock.now()),
        },
      },
    });
    expect(asset.revision.inspection.checks.map((c) => c.standard)).toEqual([
      'names',
      'formats',
      'canvas',
      'schema',
    ]);
    expect((await call('GET', `/assets/${asset.id}`)).body).toEqual(res.body);
  });

  it('registers data from json with a schema, and text', async () => {
    const palette = { colors: [{ name: 'Ink', value: '#112233' }] };
    const res = await call('POST', '/assets', {
      json: {
        request_key: key(),
        kind: 'data',
        title: 'Palette',
        files: [{ path: 'palette.json', json: palette, schema: 'svc://schemas/palette/1' }],
      },
    });
    expect(res.status).toBe(201);
    expect(
      res.body.asset.revision.inspection.checks.find((c) => c.standard === 'schema'),
    ).toMatchObject({
      verdict: 'passed',
      details: { schemas: { 'palette.json': 'svc://schemas/palette/1' } },
    });
    const file = await call('GET', `/assets/${res.body.asset.id}/files/palette.json`);
    expect(JSON.parse(file.bytes.toString('utf8'))).toEqual(palette);
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');

    const text = await createProduction(call, {
      files: [{ path: 'canvas/style.css', text: 'body{margin:0}' }],
    });
    expect(text.revision.files.map((f) => f.path)).toEqual(['canvas/style.css', 'production.json']);
  });

  it('registers a production with its medium: production.json made from the fields', async () => {
    const asset = await createProduction(call, { medium: 'social', title: 'Launch' });
    expect(asset.revision.inspection.media).toEqual([
      { id: 'social', version: 1, label: 'Social 1080×1080', type: 'display', basis: 'declared' },
    ]);
    const json = await call('GET', `/assets/${asset.id}/files/production.json`);
    expect(JSON.parse(json.bytes.toString('utf8'))).toEqual({
      format: 1,
      title: 'Launch',
      medium: { id: 'social', version: 1 },
      media_contract: { version: '1.0' },
    });
  });

  it('stores a production image of the wrong size and fails its inspection with canvas.size', async () => {
    const sha256 = await uploadBlob(call, png(300, 200));
    const asset = await createProduction(call, {
      files: [{ path: 'canvas/main.png', blob: sha256 }],
    });
    expect(asset.revision.inspection.verdict).toBe('failed');
    const canvas = asset.revision.inspection.checks.find((c) => c.standard === 'canvas');
    expect(canvas).toMatchObject({ verdict: 'failed', target: 'canvas/' });
    expect(canvas?.violations).toEqual([
      expect.objectContaining({
        code: 'canvas.size',
        path: 'canvas/main.png',
        expected: { width: 300, height: 250 },
        actual: { width: 300, height: 200 },
      }),
    ]);
    expect((await call('GET', `/assets/${asset.id}/files/canvas/main.png`)).status).toBe(200);
  });

  it('registers single-file kinds from multipart, the file streamed', async () => {
    const form = new FormData();
    form.set('request_key', key());
    form.set('kind', 'image');
    form.set('title', 'Uploaded');
    form.set('file', new Blob([png(1080, 1080)]), 'My Photo.PNG');
    const res = await call('POST', '/assets', { body: form });
    expect(res.status).toBe(201);
    expect(res.body.asset.revision.files).toEqual([
      expect.objectContaining({ path: 'my-photo.png', size: png(1080, 1080).length }),
    ]);
    expect(res.body.asset.revision.inspection.media.map((m) => m.id)).toEqual(['social']);

    const font = new FormData();
    font.set('request_key', key());
    font.set('kind', 'production');
    font.set('title', 'No');
    font.set('file', new Blob([png(1, 1)]), 'a.png');
    const refused = await call('POST', '/assets', { body: font });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveProperty('kind');
  });

  it('keeps the extension of an uploaded file name, accents folded: ä.gif is a.gif', async () => {
    // A 1 × 1 GIF89a.
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const cases: Array<[Buffer, string, string]> = [
      [gif, 'ä.gif', 'a.gif'],
      [png(2, 2), '写真.png', 'file.png'],
    ];
    for (const [bytes, name, path] of cases) {
      const form = new FormData();
      form.set('request_key', key());
      form.set('kind', 'image');
      form.set('title', name);
      form.set('file', new Blob([bytes]), name);
      const res = await call('POST', '/assets', { body: form });
      expect([name, res.status, res.body.asset?.revision.files.map((f) => f.path)]).toEqual([
        name,
        201,
        [path],
      ]);
      expect(res.body.asset.revision.inspection.verdict).toBe('passed');
    }
  });

  it('reads a given revision, and 404s for absent revisions and assets', async () => {
    const asset = await createImage(call, png(5, 5));
    expect((await call('GET', `/assets/${asset.id}?revision=1`)).body.asset.revision.number).toBe(
      1,
    );
    expect((await call('GET', `/assets/${asset.id}?revision=2`)).status).toBe(404);
    expect((await call('GET', `/assets/${asset.id}?revision=zero`)).status).toBe(422);
    const absent = await call('GET', '/assets/ast_doesnotexist');
    expect([absent.status, absent.body.code]).toEqual([404, 'not_found']);
    expect((await call('GET', '/assets/not-an-id')).status).toBe(404);
  });
});

describe('ownership', () => {
  it("answers 404 for another account's asset on every route, and 401 without a token", async () => {
    const asset = await createImage(call, png(7, 7));
    const stranger = clientOf(s, (await s.addAccount('stranger@example.org')).token);
    const id = asset.id;
    const routes: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `/assets/${id}`],
      ['GET', `/assets/${id}/revisions`],
      ['GET', `/assets/${id}/files/image.png`],
      ['PATCH', `/assets/${id}`, { title: 'x' }],
      ['POST', `/assets/${id}/revisions`, { base_revision: 1 }],
      ['POST', `/assets/${id}/duplicates`, { title: 'x' }],
      ['PUT', `/assets/${id}/state`, { state: 'archived' }],
      ['DELETE', `/assets/${id}`, {}],
      ['DELETE', `/assets/${id}/revisions/1/content`, {}],
    ];
    for (const [method, path, body] of routes) {
      const json = body && { request_key: key(), ...body };
      const res = await stranger(method, path, json ? { json } : {});
      expect([method, path, res.status]).toEqual([method, path, 404]);
      const anonymous = await call(method, path, { token: null, ...(json ? { json } : {}) });
      expect([method, path, anonymous.status, anonymous.body.code]).toEqual([
        method,
        path,
        401,
        'unauthorized',
      ]);
    }
    expect((await call('GET', `/assets/${id}`)).body.asset.state).toBe('active');
  });
});

describe('PATCH /assets/{id}', () => {
  it('renames without a new revision', async () => {
    const asset = await createImage(call, png(9, 9), 'Before');
    s.clock.advanceSeconds(5);
    const res = await call('PATCH', `/assets/${asset.id}`, {
      json: { request_key: key(), title: 'After' },
    });
    expect(res.status).toBe(200);
    expect(res.body.asset).toMatchObject({ title: 'After', revision: { number: 1 } });
    expect(res.body.asset.updated_at > asset.updated_at).toBe(true);
    const refused = await call('PATCH', `/assets/${asset.id}`, {
      json: { request_key: key(), title: 'x', kind: 'font' },
    });
    expect([refused.status, refused.body.errors]).toEqual([422, { kind: ['unknown field'] }]);
  });
});

describe('schemas', () => {
  it('lists the schemas and serves each as application/schema+json', async () => {
    const res = await call<{ schemas: Array<{ kind: string; version: number; uri: string }> }>(
      'GET',
      '/schemas',
    );
    expect(res.body.schemas.map((x) => x.kind)).toEqual(
      expect.arrayContaining(['project', 'production', 'palette', 'copy']),
    );
    for (const schema of res.body.schemas) {
      const one = await call<{ $id: string }>('GET', `/schemas/${schema.kind}/${schema.version}`);
      expect(one.headers.get('content-type')).toMatch(/^application\/schema\+json/);
      expect(one.body.$id).toBe(schema.uri);
    }
    expect((await call('GET', '/schemas/palette/9')).status).toBe(404);
  });
});
