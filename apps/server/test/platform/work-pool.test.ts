// The worker pool (src/pool): the same work gives the same bytes in a worker as on the event
// loop, small and large; byte arrays move instead of being copied; and work that fails in a
// worker (out of memory, a pool that is gone) is a clear 503 `work_failed`, never a 500 or a hang.
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { DraftLog } from '@galley/core';
import { WorkPool } from '../../src/pool/work-pool.js';
import type { StoredDraft } from '../../src/pool/tasks.js';
import { call, projectFolder, startV1Server, zipForm, zipOf } from '../v1/helpers.js';
import { startTestServer } from './harness.js';

const encoder = new TextEncoder();
const inline = new WorkPool({ threads: 0, inlineBytes: 0 });
const pooled = new WorkPool({ threads: 1, inlineBytes: 0 });
afterAll(() => pooled.close());

/** A page of about `bytes`, every id unique. */
function page(bytes: number): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const part = `<section id="s${i}"><h2>Part ${i} é😀</h2><p class="a b">${'text '.repeat(20)}</p></section>\n`;
    parts.push(part);
    size += part.length;
  }
  return `<!doctype html><html><head><title>P</title></head><body>${parts.join('')}</body></html>`;
}

function folders(): Array<[string, Uint8Array]> {
  const large = projectFolder('Large', { 'big.html': page(1 << 20) });
  large.set('index.html', encoder.encode(page(600_000)));
  const site = new Map([
    ['index.html', encoder.encode(page(300_000).replace('<body>', '<body><a href="b.html">b</a>'))],
    ['b.html', encoder.encode(page(1000))],
  ]);
  return [
    ['a small project folder', zipOf(projectFolder())],
    ['a large project folder', zipOf(large)],
    ['a plain site', zipOf(site)],
    ['bytes that are not a ZIP', encoder.encode('not a zip')],
  ];
}

function storedDraft(html: string): StoredDraft {
  const operations = Array.from({ length: 30 }, (_, i) =>
    i % 2 === 0
      ? { kind: 'insert', parent: '@0', html: `<p id="n${i}">new ${i}</p>` }
      : { kind: 'remove', target: `#n${i - 1}` },
  );
  return { html, log: { format: 1, operations, applied: 25, sequence: 40 } as DraftLog };
}

/** The value of one line of the server's GET /metrics, or null when it has none. */
async function metricOf(url: string, name: string): Promise<number | null> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line === undefined ? null : Number(line.split(' ').at(-1));
}

describe('the work pool', () => {
  it.each(folders())(
    'takes in %s as the event loop does',
    async (_name, zip) => {
      const onLoop = await inline.run('intake', { zip: zip.slice(), site: {} }, { size: 0 });
      const inWorker = await pooled.run('intake', { zip: zip.slice(), site: {} }, { size: 0 });
      expect(inWorker).toEqual(onLoop);
    },
    120_000,
  );

  it('writes a draft answer and a snapshot byte for byte as the event loop does', async () => {
    for (const html of [page(2000), page(1 << 20)]) {
      const stored = storedDraft(html);
      const size = html.length;
      const [answer, again] = [
        await inline.run('draftPage', stored, { size }),
        await pooled.run('draftPage', stored, { size }),
      ];
      expect(Buffer.from(again).equals(Buffer.from(answer))).toBe(true);
      const snapshot = await pooled.run('snapshot', stored, { size });
      expect(snapshot).toBe(await inline.run('snapshot', stored, { size }));
      expect(snapshot).toContain('<p id="n24">new 24</p>');
    }
    // Markup that reads back as another tree is not snapshotted (its numbers would move).
    const moved = storedDraft('<body><p id="p">x</p></body>');
    moved.log = {
      format: 1,
      operations: [{ kind: 'swap', target: '#p', html: '<div>block</div>' }],
      applied: 1,
      sequence: 1,
    };
    expect(await pooled.run('snapshot', moved, { size: 0 })).toBeNull();
  }, 120_000);

  it('deflates a file of a ZIP byte for byte as the event loop does', async () => {
    const text = new TextEncoder().encode('body { margin: 0; }\n'.repeat(20_000));
    const onLoop = await inline.run('deflate', text, { size: 0 });
    expect(Buffer.from(await pooled.run('deflate', text, { size: 0 })).equals(onLoop)).toBe(true);
    expect(inflateRawSync(onLoop).equals(text)).toBe(true);
  });

  it('moves byte arrays to the worker and back instead of copying them', async () => {
    const zip = zipOf(projectFolder());
    const intake = await pooled.run('intake', { zip, site: {} }, { size: 0, move: true });
    expect(zip.byteLength).toBe(0); // moved: this thread no longer has them
    if (!intake.ok) throw new Error('refused');
    expect(new TextDecoder().decode(intake.folder.get('style.css'))).toBe('body { margin: 0; }\n');
    // A view of a larger buffer (an upload gathered into one as it arrived) moves its buffer.
    const gathered = new Uint8Array(zip.byteLength + 100_000);
    const upload = zipOf(projectFolder());
    gathered.set(upload);
    const view = gathered.subarray(0, upload.byteLength);
    expect(await pooled.run('intake', { zip: view, site: {} }, { size: 0, move: true })).toEqual(
      await inline.run('intake', { zip: upload, site: {} }, { size: 0 }),
    );
    expect(gathered.byteLength).toBe(0);
    // Below the threshold the work runs here: nothing moves.
    const small = zipOf(projectFolder());
    const bounded = new WorkPool({ threads: 1, inlineBytes: small.byteLength + 1 });
    await bounded.run('intake', { zip: small, site: {} }, { size: small.byteLength, move: true });
    expect(small.byteLength).toBeGreaterThan(0);
    await bounded.close();
  });

  it('answers 503 work_failed for work that throws or runs out of time, then works again', async () => {
    const refused = storedDraft(page(1000));
    refused.log = { ...refused.log, operations: [{ kind: 'remove', target: '#none' }], applied: 1 };
    await expect(pooled.run('draftPage', refused, { size: 0 })).rejects.toMatchObject({
      status: 503,
      code: 'work_failed',
      headers: { 'Retry-After': '5' },
    });
    const hasty = new WorkPool({ threads: 1, inlineBytes: 0, timeoutMs: 1 });
    try {
      await expect(
        hasty.run('draftPage', storedDraft(page(1 << 20)), { size: 0 }),
      ).rejects.toMatchObject({ status: 503, code: 'work_failed' });
    } finally {
      await hasty.close();
    }
    expect(await pooled.run('snapshot', storedDraft(page(1000)), { size: 0 })).toContain('new 24');
  }, 120_000);

  it('times the work a worker did in GET /metrics: its wait for a thread and its run', async () => {
    // Every folder goes to a worker.
    const s = await startTestServer({ poolThreads: 1, poolInlineBytes: 1 });
    try {
      const metric = (name: string) => metricOf(s.url, name);
      const count = (kind: 'wait' | 'run') =>
        metric(`galley_worker_pool_${kind}_seconds_count{pool="work",task="intake"}`);
      expect(await count('run')).toBe(null);
      const res = await call(s, 'POST', '/projects/folder', {
        token: s.token,
        client: 'pool-test',
        form: zipForm(zipOf(projectFolder())),
      });
      expect(res.status).toBe(201);
      expect([await count('wait'), await count('run')]).toEqual([1, 1]);
      const ran = await metric('galley_worker_pool_run_seconds_sum{pool="work",task="intake"}');
      expect(ran).toBeGreaterThan(0);
      expect(await metric('galley_worker_pool_queue_size{pool="work"}')).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('takes in a small ZIP of a large page in a worker: the work is what the ZIP holds', async () => {
    const s = await startTestServer({ poolThreads: 1 });
    try {
      const runs = async () =>
        (await metricOf(
          s.url,
          'galley_worker_pool_run_seconds_count{pool="work",task="intake"}',
        )) ?? 0;
      const upload = async (zip: Uint8Array) => {
        const form = zipForm(zip);
        const res = await call(s, 'POST', '/projects/folder', {
          token: s.token,
          client: 'pool-test',
          form,
        });
        expect([res.status, res.body.violations]).toEqual([201, undefined]);
      };
      await upload(zipOf(projectFolder()));
      expect(await runs()).toBe(0); // small work stays on the event loop
      const zip = zipOf(projectFolder('Large', { 'index.html': page(1 << 20) }));
      expect(zip.byteLength).toBeLessThan(s.config.poolInlineBytes / 4);
      await upload(zip);
      expect(await runs()).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('answers a folder upload whose work fails with 503 work_failed over HTTP', async () => {
    const s = await startV1Server();
    try {
      await s.server.app.deps.pool.close(); // no worker left to take the work
      // Past the threshold even compressed: bytes that do not compress.
      const large = projectFolder('Large');
      large.set('noise.bin', randomBytes(s.config.poolInlineBytes));
      const res = await call(s, 'POST', '/projects/folder', {
        token: s.token,
        client: 'pool-test',
        form: zipForm(zipOf(large)),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body).toMatchObject({ status: 503, code: 'work_failed' });
      // Small work never needed a worker.
      const small = await call(s, 'POST', '/projects/folder', {
        token: s.token,
        client: 'pool-test',
        form: zipForm(zipOf(projectFolder())),
      });
      expect(small.status).toBe(201);
    } finally {
      await s.close();
    }
  });
});
