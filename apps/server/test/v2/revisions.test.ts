// GET/POST /assets/{id}/revisions: put, remove, base_revision conflicts and races.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStores } from '../../../../packages/store/test/stores.js';
import type { Call, TestServer } from './helpers.js';
import {
  clientOf,
  createImage,
  createProduction,
  key,
  png,
  serveStore,
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

const revise = (who: Call, id: string, body: Record<string, unknown>) =>
  who('POST', `/assets/${id}/revisions`, { json: { request_key: key(), ...body } });

describe('POST /assets/{id}/revisions', () => {
  it('puts and removes files on the base: 201 with the new revision, older ones unchanged', async () => {
    const logo = await uploadBlob(call, png(300, 250));
    const prod = await createProduction(call, {
      files: [
        { path: 'canvas/a.css', text: 'a{}' },
        { path: 'canvas/b.css', text: 'b{}' },
      ],
    });
    const res = await revise(call, prod.id, {
      base_revision: 1,
      put: [
        { path: 'canvas/logo.png', blob: logo },
        { path: 'canvas/a.css', text: 'a{color:red}' },
      ],
      remove: ['canvas/b.css'],
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${s.url}/api/v2/assets/${prod.id}?revision=2`);
    const { revision } = res.body.asset;
    expect(revision).toMatchObject({ number: 2, ref: `${prod.id}@2`, erased: false });
    expect(revision.files.map((f) => `${f.path}:${f.size}`)).toEqual([
      'canvas/a.css:12',
      `canvas/logo.png:${png(300, 250).length}`,
      expect.stringMatching(/^production\.json:/),
    ]);
    expect(revision.inspection.verdict).toBe('passed');
    const first = await call('GET', `/assets/${prod.id}?revision=1`);
    expect(first.body.asset.revision.files.map((f) => f.path)).toEqual([
      'canvas/a.css',
      'canvas/b.css',
      'production.json',
    ]);
    expect((await call('GET', `/assets/${prod.id}/files/canvas/a.css?revision=1`)).body).toBe(
      'a{}',
    );
    expect((await call('GET', `/assets/${prod.id}/files/canvas/a.css`)).body).toBe('a{color:red}');
    expect((await call('GET', `/assets/${prod.id}/files/canvas/b.css`)).status).toBe(404);
  });

  it('inspects every revision: a wrong-size canvas image is stored and fails', async () => {
    const prod = await createProduction(call, { medium: 'leaderboard' });
    const res = await revise(call, prod.id, {
      base_revision: 1,
      put: [{ path: 'canvas/main.png', blob: await uploadBlob(call, png(300, 250)) }],
    });
    expect(res.status).toBe(201);
    expect(res.body.asset.revision.inspection.verdict).toBe('failed');
    expect(res.body.asset.revision.inspection.checks[2]?.violations[0]).toMatchObject({
      code: 'canvas.size',
      expected: { width: 728, height: 90 },
      actual: { width: 300, height: 250 },
    });
    const fixed = await revise(call, prod.id, {
      base_revision: 2,
      put: [{ path: 'canvas/main.png', blob: await uploadBlob(call, png(728, 90)) }],
    });
    expect(fixed.body.asset.revision.inspection.verdict).toBe('passed');
  });

  it('answers 409 revision_conflict with current_revision for a stale base', async () => {
    const img = await createImage(call, png(2, 2));
    const next = {
      base_revision: 1,
      put: [{ path: 'image.png', blob: await uploadBlob(call, png(3, 3)) }],
    };
    expect((await revise(call, img.id, next)).status).toBe(201);
    for (const base of [1, 5]) {
      const stale = await revise(call, img.id, { ...next, base_revision: base });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        code: 'revision_conflict',
        current_revision: 2,
        status: 409,
      });
    }
  });

  it('checks production.json against a schema named with it, on any base: 422 schema.invalid', async () => {
    const prod = await createProduction(call, { medium: 'banner', title: 's' });
    const content = {
      format: 1,
      title: 's',
      medium: { id: 'banner', version: 1 },
      media_contract: { version: '1.0' },
    };
    const named = (schema: string, base: number) =>
      revise(call, prod.id, {
        base_revision: base,
        put: [{ path: 'production.json', schema, json: content }],
      });
    expect((await revise(call, prod.id, { base_revision: 1, put: [] })).status).toBe(201);
    for (const base of [2, 1]) {
      // A valid production is no palette; on the stale base too, the input is judged first.
      const res = await named('svc://schemas/palette/1', base);
      expect([base, res.status, res.body.code, Object.keys(res.body.errors ?? {})]).toEqual([
        base,
        422,
        'invalid_files',
        ['put.0'],
      ]);
      expect(new Set(res.body.violations?.map((v) => `${v.code} ${String(v.expected)}`))).toEqual(
        new Set(['schema.invalid svc://schemas/palette/1']),
      );
    }
    const own = await named('svc://schemas/production/1', 2);
    expect(own.status).toBe(201);
    expect(own.body.asset.revision.inspection.verdict).toBe('passed');
  });

  it('judges the request before the conflict: invalid input on an earlier base is 422, not 409', async () => {
    const img = await createImage(call, png(2, 2));
    const blob = await uploadBlob(call, png(3, 3));
    expect(
      (await revise(call, img.id, { base_revision: 1, put: [{ path: 'image.png', blob }] })).status,
    ).toBe(201);
    const badName = await revise(call, img.id, {
      base_revision: 1,
      put: [{ path: 'Bad Name.png', blob }],
      remove: ['image.png'],
    });
    expect([badName.status, badName.body.code, Object.keys(badName.body.errors ?? {})]).toEqual([
      422,
      'invalid_files',
      ['put.0'],
    ]);
    expect(badName.body.violations).toEqual([
      {
        code: 'names.characters',
        path: 'Bad Name.png',
        message: expect.any(String) as string,
        expected: null,
        actual: ' BN',
      },
    ]);
    const text = await revise(call, img.id, {
      base_revision: 1,
      put: [{ path: 'image.txt', text: 'x' }],
      remove: ['image.png'],
    });
    expect([text.status, text.body.code, Object.keys(text.body.errors ?? {})]).toEqual([
      422,
      'invalid_files',
      ['put.0'],
    ]);
    expect(text.body.violations?.map((v) => [v.path, v.code])).toEqual([
      ['image.txt', 'formats.kind'],
    ]);
    // Planned on the sent base: a path that base does not hold is invalid as well.
    const missing = await revise(call, img.id, { base_revision: 1, remove: ['none.png'] });
    expect([missing.status, Object.keys(missing.body.errors ?? {})]).toEqual([422, ['remove.0']]);
    // Valid on the sent base: only now the conflict.
    const valid = await revise(call, img.id, {
      base_revision: 1,
      put: [{ path: 'image.png', blob }],
    });
    expect([valid.status, valid.body.code, valid.body.current_revision]).toEqual([
      409,
      'revision_conflict',
      2,
    ]);
    expect((await call('GET', `/assets/${img.id}`)).body.asset.revision.number).toBe(2);
  });

  it('on a base that does not exist or whose content was erased: 422 for a path no base could hold, else 409', async () => {
    const img = await createImage(call, png(2, 2));
    const blob = await uploadBlob(call, png(3, 3));
    await revise(call, img.id, { base_revision: 1, put: [{ path: 'image.png', blob }] });
    const erase = await call('DELETE', `/assets/${img.id}/revisions/1/content`, {
      json: { request_key: key() },
    });
    expect(erase.status).toBe(200);
    for (const base of [7, 1]) {
      // The path breaks the naming rules whatever the base holds: the request itself first.
      for (const bad of [
        { put: [{ path: '../a.json', json: {} }] },
        { put: [{ path: 'Bad Name.png', blob }], remove: ['image.png'] },
        { remove: ['../image.png'] },
      ]) {
        const refused = await revise(call, img.id, { base_revision: base, ...bad });
        expect([refused.status, refused.body.code]).toEqual([422, 'invalid_files']);
        expect(refused.body.violations?.[0]?.code).toMatch(/^names\./);
      }
      // What only the base could tell (the file count of an image) waits for the base: 409.
      const unjudged = await revise(call, img.id, {
        base_revision: base,
        put: [{ path: 'other.png', blob }],
      });
      expect([unjudged.status, unjudged.body.code, unjudged.body.current_revision]).toEqual([
        409,
        'revision_conflict',
        2,
      ]);
    }
  });

  it('refuses invalid changes with 422 and stores nothing', async () => {
    const prod = await createProduction(call, { files: [{ path: 'canvas/a.css', text: 'a{}' }] });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ remove: ['canvas/none.css'] }, 'remove.0'],
      [{ remove: ['canvas/a.css', 'canvas/a.css'] }, 'remove.1'],
      [{ put: [{ path: 'canvas/a.css', text: 'x' }], remove: ['canvas/a.css'] }, 'put.0'],
      [{ put: [{ path: 'elsewhere/a.css', text: 'x' }] }, 'put.0'],
      [{ put: [{ path: 'canvas/x.exe', text: 'x' }] }, 'put.0'],
      [{ put: [{ path: 'canvas/../a.css', text: 'x' }] }, 'put.0'],
      [{ put: [{ path: 'production.json', json: { format: 2 } }] }, 'put.0'],
      [{ remove: ['production.json'] }, 'remove.0'],
    ];
    for (const [change, field] of cases) {
      const res = await revise(call, prod.id, { base_revision: 1, ...change });
      expect([JSON.stringify(change), res.status, Object.keys(res.body.errors ?? {})]).toEqual([
        JSON.stringify(change),
        422,
        [field],
      ]);
    }
    expect((await call('GET', `/assets/${prod.id}`)).body.asset.revision.number).toBe(1);
  });

  it('holds a revision to 5,000 files', async () => {
    const prod = await createProduction(call);
    // One content under 5,000 names: the limit counts files, not bytes.
    const put = Array.from({ length: 5000 }, (_, i) => ({
      path: `references/f${i}.json`,
      json: 0,
    }));
    const res = await revise(call, prod.id, { base_revision: 1, put });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ put: ['a revision holds at most 5000 files'] });
    const fits = await revise(call, prod.id, { base_revision: 1, put: put.slice(0, 4999) });
    expect([fits.status, fits.body.asset.revision.files.length]).toEqual([201, 5000]);
  });
});

describe('GET /assets/{id}/revisions', () => {
  it('lists revisions newest first with verdict and media, paged', async () => {
    const img = await createImage(call, png(300, 250));
    for (const [base, [w, h]] of [
      [1, [10, 10]],
      [2, [1080, 1080]],
    ] as const) {
      await revise(call, img.id, {
        base_revision: base,
        put: [{ path: 'image.png', blob: await uploadBlob(call, png(w, h)) }],
      });
    }
    const page = await call<{
      revisions: Array<{ number: number; inspection: { media: Array<{ id: string }> } }>;
      next_page_url: string | null;
    }>('GET', `/assets/${img.id}/revisions?per_page=2`);
    expect(page.status).toBe(200);
    expect(page.body.revisions.map((r) => [r.number, r.inspection.media.map((m) => m.id)])).toEqual(
      [
        [3, ['social']],
        [2, []],
      ],
    );
    expect(Object.keys(page.body.revisions[0]!).sort()).toEqual([
      'created_at',
      'erased',
      'inspection',
      'number',
      'ref',
    ]);
    expect(Object.keys(page.body.revisions[0]!.inspection).sort()).toEqual(['media', 'verdict']);
    const rest = await fetch(page.body.next_page_url!, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    const body = (await rest.json()) as {
      revisions: Array<{ number: number }>;
      next_page_url: null;
    };
    expect([body.revisions.map((r) => r.number), body.next_page_url]).toEqual([[1], null]);
    expect((await call('GET', `/assets/${img.id}/revisions?page=xyz`)).status).toBe(422);
  });
});

describeStores('two writers on one base', (t) => {
  let served: Awaited<ReturnType<typeof serveStore>>;
  beforeAll(async () => {
    served = await serveStore(t.store, t.clock);
  });
  afterAll(() => served.close());

  it('lets exactly one win; the other gets 409 with the winner as current_revision', async () => {
    for (let round = 0; round < 5; round++) {
      const prod = await createProduction(served.call);
      const answers = await Promise.all(
        ['a', 'b'].map((name) =>
          revise(served.call, prod.id, {
            base_revision: 1,
            put: [{ path: `canvas/${name}.css`, text: `${name}{}` }],
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      const loser = answers.find((a) => a.status === 409)!;
      expect(loser.body).toMatchObject({ code: 'revision_conflict', current_revision: 2 });
      const current = await served.call('GET', `/assets/${prod.id}`);
      const winner = answers.find((a) => a.status === 201)!;
      expect(current.body.asset.revision.files).toEqual(winner.body.asset.revision.files);
      expect(current.body.asset.revision.number).toBe(2);
    }
  });
});
