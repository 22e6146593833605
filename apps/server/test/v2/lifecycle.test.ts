// Duplicates, copies, the state machine and permanent deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Asset, Call, TestServer } from './helpers.js';
import { clientOf, createImage, createProduction, key, png, startTestServer } from './helpers.js';

let s: TestServer;
let call: Call;
beforeAll(async () => {
  s = await startTestServer();
  call = clientOf(s);
});
afterAll(() => s.close());

const post = (path: string, body: Record<string, unknown>) =>
  call('POST', path, { json: { request_key: key(), ...body } });
const paths = (a: Asset) => a.revision.files.map((f) => f.path);

describe('POST /assets/{id}/duplicates', () => {
  it('copies a revision completely into a new asset of the caller', async () => {
    const img = await createImage(call, png(300, 250), 'Original');
    const later = await createImage(call, png(1080, 1080), 'Later');
    await post(`/assets/${img.id}/revisions`, {
      base_revision: 1,
      put: [{ path: 'image.png', blob: later.revision.files[0]!.sha256 }],
    });
    const res = await post(`/assets/${img.id}/duplicates`, { title: 'Copy', revision: 1 });
    expect(res.status).toBe(201);
    const copy = res.body.asset;
    expect(res.headers.get('location')).toBe(`${s.url}/api/v2/assets/${copy.id}`);
    expect(copy.id).not.toBe(img.id);
    expect(copy).toMatchObject({
      kind: 'image',
      title: 'Copy',
      owner: img.owner,
      revision: { number: 1 },
    });
    expect(copy.revision.files).toEqual(img.revision.files);
    expect(copy.revision.inspection.media).toEqual(img.revision.inspection.media);
    const current = await post(`/assets/${img.id}/duplicates`, { title: 'Two' });
    expect(current.body.asset.revision.files).toEqual(later.revision.files);
    expect(current.body.asset.revision.inspection.media.map((m) => m.id)).toEqual(['social']);
    // A revision named in the body is a reference: 422 on it when there is none.
    const none = await post(`/assets/${img.id}/duplicates`, { title: 'x', revision: 7 });
    expect([none.status, none.body.errors]).toEqual([
      422,
      { revision: ['The asset has no revision 7.'] },
    ]);
  });

  it("duplicates a service font into the caller's own assets", async () => {
    const res = await post('/assets/ast_svc_inter_700/duplicates', { title: 'My Inter' });
    expect(res.status).toBe(201);
    expect(res.body.asset).toMatchObject({
      kind: 'font',
      owner: `user:${s.account.accountNumber}`,
    });
    const renamed = await call('PATCH', `/assets/${res.body.asset.id}`, {
      json: { request_key: key(), title: 'Mine' },
    });
    expect(renamed.status).toBe(200);
  });
});

describe('POST /assets/{id}/copies', () => {
  it("copies another asset below `to` in the production's references/, keeping its structure", async () => {
    const logo = await createImage(call, png(30, 30), 'Logo');
    const prod = await createProduction(call);
    const first = await post(`/assets/${prod.id}/copies`, {
      base_revision: 1,
      source: { asset: logo.id },
      to: 'references/logo/',
    });
    expect(first.status).toBe(201);
    expect(paths(first.body.asset)).toEqual(['production.json', 'references/logo/image.png']);
    expect(first.body.asset.revision.files[1]!.sha256).toBe(logo.revision.files[0]!.sha256);

    const source = await createProduction(call, {
      files: [{ path: 'canvas/deep/a.css', text: 'a{}' }],
    });
    const second = await post(`/assets/${prod.id}/copies`, {
      base_revision: 2,
      source: { asset: source.id, revision: 1 },
      to: 'references/',
    });
    expect(second.status).toBe(201);
    expect(paths(second.body.asset)).toEqual([
      'production.json',
      'references/canvas/deep/a.css',
      'references/logo/image.png',
      'references/production.json',
    ]);
    const font = await post(`/assets/${prod.id}/copies`, {
      base_revision: 3,
      source: { asset: 'ast_svc_inter_400' },
      to: 'references/fonts/',
    });
    expect(paths(font.body.asset)).toContain('references/fonts/inter-latin-400-normal.woff2');
    expect(font.body.asset.revision.inspection.verdict).toBe('passed');
  });

  it('refuses stale bases (409), bad destinations, unknown sources and non-productions (422)', async () => {
    const img = await createImage(call, png(8, 8));
    const prod = await createProduction(call);
    const copy = (body: Record<string, unknown>, into = prod.id) =>
      post(`/assets/${into}/copies`, {
        base_revision: 1,
        source: { asset: img.id },
        to: 'references/x/',
        ...body,
      });
    const stale = await copy({ base_revision: 2 });
    expect([stale.status, stale.body.code, stale.body.current_revision]).toEqual([
      409,
      'revision_conflict',
      1,
    ]);
    for (const to of [
      'canvas/',
      'references/x',
      'references/../x/',
      '/references/x/',
      'references/.x/',
    ]) {
      const res = await copy({ to });
      expect([to, res.status, Object.keys(res.body.errors ?? {})]).toEqual([to, 422, ['to']]);
    }
    const stranger = await s.addAccount('copy-source@example.org');
    const theirs = await createImage(clientOf(s, stranger.token), png(8, 8));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ source: { asset: theirs.id } }, 'source.asset'],
      [{ source: { asset: 'ast_absent' } }, 'source.asset'],
      [{ source: { asset: img.id, revision: 2 } }, 'source.revision'],
    ];
    for (const [body, field] of cases) {
      const res = await copy(body);
      expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([422, [field]]);
    }
    const intoImage = await copy({}, img.id);
    expect([intoImage.status, Object.keys(intoImage.body.errors ?? {})]).toEqual([422, ['id']]);
  });

  it('judges a copy on an earlier base before the conflict: 422 when its paths are invalid there', async () => {
    const img = await createImage(call, png(8, 8));
    const prod = await createProduction(call);
    const source = { asset: img.id };
    expect(
      (await post(`/assets/${prod.id}/copies`, { base_revision: 1, source, to: 'references/a/' }))
        .status,
    ).toBe(201);
    // references/<185 letters>/image.png is 206 bytes: past the 200-byte path rule.
    const long = `references/${'a'.repeat(185)}/`;
    const invalid = await post(`/assets/${prod.id}/copies`, { base_revision: 1, source, to: long });
    expect([invalid.status, invalid.body.code, Object.keys(invalid.body.errors ?? {})]).toEqual([
      422,
      'invalid_files',
      ['source'],
    ]);
    expect(invalid.body.violations).toEqual([
      {
        code: 'names.too_long',
        path: `${long}image.png`,
        message: expect.any(String) as string,
        expected: 200,
        actual: 206,
      },
    ]);
    const valid = await post(`/assets/${prod.id}/copies`, {
      base_revision: 1,
      source,
      to: 'references/b/',
    });
    expect([valid.status, valid.body.code, valid.body.current_revision]).toEqual([
      409,
      'revision_conflict',
      2,
    ]);
  });
});

describe('PUT /assets/{id}/state', () => {
  const states = ['active', 'archived', 'deleted'] as const;
  const allowed: Record<string, string[]> = {
    archived: ['active'],
    deleted: ['active', 'archived'],
    active: ['archived', 'deleted'],
  };
  /** An asset brought into `state` by allowed moves only. */
  async function assetIn(state: (typeof states)[number]) {
    const asset = await createImage(call, png(3, 3));
    const path = [
      'active',
      state === 'archived' ? 'archived' : state === 'deleted' ? 'deleted' : null,
    ];
    if (path[1]) {
      const res = await call('PUT', `/assets/${asset.id}/state`, {
        json: { request_key: key(), state: path[1] },
      });
      expect(res.status).toBe(200);
    }
    return asset;
  }

  for (const from of states) {
    for (const to of states) {
      const ok = allowed[to]!.includes(from);
      it(`${from} → ${to}: ${ok ? '200' : '409 state_conflict'}`, async () => {
        const asset = await assetIn(from);
        const res = await call('PUT', `/assets/${asset.id}/state`, {
          json: { request_key: key(), state: to },
        });
        if (ok) {
          expect(res.status).toBe(200);
          expect(res.body.asset).toMatchObject({
            id: asset.id,
            state: to,
            revision: { number: 1 },
          });
        } else {
          expect(res.status).toBe(409);
          expect(res.body).toMatchObject({ code: 'state_conflict', state: from });
        }
        const listed = await call<{ assets: Array<{ id: string }> }>(
          'GET',
          `/assets?state=${ok ? to : from}&per_page=200`,
        );
        expect(listed.body.assets.map((a) => a.id)).toContain(asset.id);
      });
    }
  }

  it('refuses an unknown state with 422', async () => {
    const asset = await createImage(call, png(3, 3));
    const res = await call('PUT', `/assets/${asset.id}/state`, {
      json: { request_key: key(), state: 'gone' },
    });
    expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([422, ['state']]);
  });
});

describe('DELETE /assets/{id}', () => {
  it('deletes only from the trash (else 409 not_in_trash), with its bytes', async () => {
    // Text content: no blob of the caller holds these bytes, so they go with the asset.
    const asset = await createProduction(call, {
      files: [{ path: 'canvas/gone.css', text: 'g{}' }],
    });
    const sha256 = asset.revision.files.find((f) => f.path === 'canvas/gone.css')!.sha256;
    const remove = (request_key = key()) =>
      call('DELETE', `/assets/${asset.id}`, { json: { request_key } });
    for (const state of ['active', 'archived']) {
      if (state === 'archived')
        await call('PUT', `/assets/${asset.id}/state`, { json: { request_key: key(), state } });
      const res = await remove();
      expect([res.status, res.body.code]).toEqual([409, 'not_in_trash']);
    }
    await call('PUT', `/assets/${asset.id}/state`, {
      json: { request_key: key(), state: 'deleted' },
    });
    const once = key();
    const res = await remove(once);
    expect([res.status, res.bytes.length]).toEqual([204, 0]);
    expect((await call('GET', `/assets/${asset.id}`)).status).toBe(404);
    expect(await s.store.bytes.has(sha256)).toBe(false);
    expect((await remove(once)).status).toBe(204); // the same request again: its first answer
    expect((await remove()).status).toBe(404);
  });
});
