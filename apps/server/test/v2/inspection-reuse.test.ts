// A revision inspects again only the contents it changes (the facts of the others are known by
// their SHA-256): its inspection must equal one computed from scratch, on the event loop and in
// a worker of the pool alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call, TestServer } from './helpers.js';
import { clientOf, createProduction, key, png, startTestServer, uploadBlob } from './helpers.js';

const svg = (width: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="250"><rect width="9" height="9"/></svg>`;

/** Many files of every kind the inspection reads: images (one of the wrong size), CSS, SVG. */
async function manyFiles(call: Call): Promise<unknown[]> {
  const files: unknown[] = [];
  for (let n = 0; n < 30; n++) {
    files.push({ path: `canvas/i${n}.png`, blob: await uploadBlob(call, png(300, 250, n)) });
    files.push({ path: `canvas/s${n}.css`, text: `.c${n}{order:${n}}` });
  }
  const wrong = await uploadBlob(call, png(728, 90));
  files.push(
    { path: 'canvas/wrong.png', blob: wrong },
    { path: 'references/wrong.png', blob: wrong },
  );
  files.push({ path: 'canvas/v.svg', text: svg(300) });
  return files;
}

/** The inspection as answered, without its time (servers' clocks are their own). */
const inspectionText = (asset: { revision: { inspection: Record<string, unknown> } }) =>
  JSON.stringify({ ...asset.revision.inspection, inspected_at: null });

const from = (n: number) => Array.from({ length: n }, (_, i) => i);

describe.each([
  { where: 'on the event loop', pool: { poolThreads: 0 } },
  { where: 'in a worker', pool: { poolThreads: 1, poolInlineBytes: 0 } },
])('a revision changing 1 file of many, inspected $where', ({ pool }) => {
  let s: TestServer;
  let scratch: TestServer;
  beforeAll(async () => {
    s = await startTestServer(pool);
    scratch = await startTestServer({ poolThreads: 0 });
  });
  afterAll(async () => {
    await s.close();
    await scratch.close();
  });

  it('answers the inspection computed from scratch for the same files', async () => {
    const call = clientOf(s);
    const prod = await createProduction(call, { files: await manyFiles(call) });
    const changed = [
      { path: 'canvas/s1.css', text: '.changed{order:1}' },
      // Known content at a new path: its facts are the content's, its place the new path's.
      { path: 'references/again.png', blob: await uploadBlob(call, png(728, 90)) },
    ];
    const revised = await call('POST', `/assets/${prod.id}/revisions`, {
      json: { request_key: key(), base_revision: 1, put: changed },
    });
    expect(revised.status).toBe(201);
    const { asset } = revised.body;
    expect(asset.revision.number).toBe(2);
    expect(asset.revision.inspection.verdict).toBe('failed');
    expect(asset.revision.inspection.checks[2]?.violations.map((v) => v.path)).toEqual([
      'canvas/wrong.png',
    ]);

    // The same files in one write to a server that never saw them.
    const fresh = clientOf(scratch);
    const files = [];
    for (const file of asset.revision.files) {
      const bytes = (await call('GET', `/assets/${prod.id}/files/${file.path}`)).bytes;
      if (file.path !== 'production.json')
        files.push({ path: file.path, blob: await uploadBlob(fresh, bytes) });
    }
    const again = await createProduction(fresh, { files });
    expect(again.revision.files.map((f) => [f.path, f.sha256])).toEqual(
      asset.revision.files.map((f) => [f.path, f.sha256]),
    );
    expect(inspectionText(asset)).toBe(inspectionText(again));
    // And as stored: what GET answers for revision 2 is what the write answered.
    const stored = await call('GET', `/assets/${prod.id}?revision=2`);
    expect(stored.status).toBe(200);
    expect(JSON.stringify(stored.body.asset.revision.inspection)).toBe(
      JSON.stringify(asset.revision.inspection),
    );
    const sizes = asset.revision.inspection.checks[2]?.details.sizes as Record<string, unknown>;
    expect(Object.keys(sizes)).toEqual([
      ...from(30)
        .map((n) => `canvas/i${n}.png`)
        .sort(),
      'canvas/v.svg',
      'canvas/wrong.png',
    ]);
  });
  // An image above the loader's cache entry size was read from the byte store by every revision.
  it('reads none of the files it does not change: their facts are known', async () => {
    const call = clientOf(s);
    const bytes = Buffer.concat([png(300, 250, 7), Buffer.alloc(300_000)]);
    const prod = await createProduction(call, {
      files: [
        { path: 'canvas/big.png', blob: await uploadBlob(call, bytes) },
        { path: 'canvas/a.css', text: 'a{order:1}' },
      ],
    });
    const big = prod.revision.files.find((f) => f.path === 'canvas/big.png')!;
    // Its bytes are taken away for this write only: read, they would be missing.
    expect(await s.store.bytes.delete(big.sha256)).toBe(true);
    try {
      const revised = await call('POST', `/assets/${prod.id}/revisions`, {
        json: {
          request_key: key(),
          base_revision: 1,
          put: [{ path: 'canvas/a.css', text: 'b{}' }],
        },
      });
      expect(revised.status).toBe(201);
      const { inspection } = revised.body.asset.revision;
      expect(inspection.verdict).toBe('passed');
      expect(inspection.checks[2]?.details.sizes).toEqual({
        'canvas/big.png': { width: 300, height: 250 },
      });
      expect(inspectionText(revised.body.asset)).toBe(inspectionText(prod));
    } finally {
      await s.store.bytes.put([bytes]);
    }
    expect((await call('GET', `/assets/${prod.id}/files/canvas/big.png`)).bytes).toEqual(bytes);
  });
});
