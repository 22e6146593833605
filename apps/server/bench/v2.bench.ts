// Benchmark of the asset interface, side by side in one run, on loopback:
//   POST /blobs of 50 MB                 vs  copying the bytes to a file with SHA-256 (goal ≥ ½)
//   GET /assets/{id}/files/{path}, 50 MB vs  reading the stored file from disk        (goal ≥ ½)
//   GET /assets/{id}/files/{path}, 100 MB vs a bare Node static file server          (goal ≥ 0.8×)
//   POST /assets/{id}/revisions changing one file of a 2,000-file production
//                                        vs  the same on a 5-file production          (goal ≤ 1.5×)
// The server runs in a child process (this file, started with `serve`), so client and server
// do not share an event loop. Each answer is checked before it is timed.
// Writes <repo>/.bench/v2.json. Run: pnpm --filter @galley/server bench
// GALLEY_BENCH_ROWS=revisions runs only the revision row and prints it (nothing written);
// GALLEY_BENCH_SERVER_ARGS adds Node options to the server process (e.g. --cpu-prof).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { deflateSync } from 'node:zlib';
import { median, serveBenchChild, writeBench } from './bench-child.js';

const MB = 1_000_000;
const BIG = 50 * MB;
const ROUNDS = 7;
const REVISIONS = 30;

/**
 * The peer of a file download: a bare Node static file server over the byte folder, as anyone
 * would write one (a read stream piped to the answer), in a process of its own like the service.
 */
function serveStatic(root: string): void {
  const server = createServer((req, res) => {
    const path = join(root, (req.url ?? '/').slice(1));
    res.setHeader('Content-Type', 'application/octet-stream');
    void pipeline(createReadStream(path), res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ url: `http://127.0.0.1:${port}` });
  });
  process.on('message', () => server.close(() => process.exit(0)));
}

interface Target {
  url: string;
  token: string;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'galley-bench-v2-'));
  const child: ChildProcess = fork(
    new URL(import.meta.url).pathname,
    ['serve', join(work, 'data')],
    {
      execArgv: [
        '--import',
        'tsx',
        '--conditions=@galley/source',
        ...(process.env.GALLEY_BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []),
      ],
    },
  );
  try {
    const [target] = (await once(child, 'message')) as [Target];
    if (process.env.GALLEY_BENCH_ROWS === 'revisions') {
      const row = await revisionCost(target);
      console.log(`${row.ok ? 'ok ' : 'NO '} ${row.name}: ${row.value} (goal ${row.goal})`);
      return;
    }
    const rows = [
      await blobUpload(target, work),
      await fileDownload(target, work),
      await staticComparison(target, work),
      await revisionCost(target),
    ];
    writeBench('v2', 'Asset interface (/api/v2), loopback', rows);
  } finally {
    child.send('stop');
    await once(child, 'exit');
    await rm(work, { recursive: true, force: true });
  }
}

const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);

/** An HTTP call whose request body is streamed from `source`; answers status and body bytes. */
function call(
  target: Target,
  method: string,
  path: string,
  options: { source?: NodeJS.ReadableStream; json?: unknown; sink?: (chunk: Buffer) => void } = {},
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.source) headers['content-type'] = 'application/octet-stream';
    const req = request(`${target.url}/api/v2${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => (options.sink ? options.sink(chunk) : chunks.push(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.source) void pipeline(options.source, req).catch(reject);
    else req.end(options.json === undefined ? undefined : JSON.stringify(options.json));
  });
}

async function json<T>(
  target: Target,
  method: string,
  path: string,
  body: unknown,
  expect: number,
): Promise<T> {
  const res = await call(target, method, path, { json: body });
  if (res.status !== expect)
    throw new Error(`${method} ${path}: ${res.status} ${res.body.toString()}`);
  return JSON.parse(res.body.toString()) as T;
}

/** Copies `source` to `dest` hashing on the way, then fsyncs: what a blob upload must do. */
async function copyWithSha256(source: string, dest: string): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(dest);
  await pipeline(
    createReadStream(source),
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        yield chunk;
      }
    },
    out,
  );
  const handle = await open(dest, 'r+');
  await handle.sync();
  await handle.close();
  return hash.digest('hex');
}

async function blobUpload(target: Target, work: string) {
  const source = join(work, 'big.bin');
  await writeFile(source, randomBytes(BIG));
  const copies: number[] = [];
  const uploads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // New bytes each round, so the store never finds them already there.
    const handle = await open(source, 'r+');
    await handle.write(randomBytes(16), 0, 16, 0);
    await handle.close();
    let start = performance.now();
    const expected = await copyWithSha256(source, join(work, `copy-${round}.bin`));
    copies.push(performance.now() - start);
    await rm(join(work, `copy-${round}.bin`));
    start = performance.now();
    const res = await call(target, 'POST', '/blobs', { source: createReadStream(source) });
    uploads.push(performance.now() - start);
    const body = JSON.parse(res.body.toString()) as { sha256: string; size: number };
    if (res.status !== 201 || body.sha256 !== expected || body.size !== BIG) {
      throw new Error(`POST /blobs answered ${res.status} ${res.body.toString()}`);
    }
  }
  const server = mbps(BIG, median(uploads));
  const baseline = mbps(BIG, median(copies));
  return {
    name: 'POST /blobs, 50 MB, vs copy to a file with SHA-256 (MB/s, median of 7)',
    value: `${server.toFixed(0)} vs ${baseline.toFixed(0)} MB/s (${(server / baseline).toFixed(2)}×)`,
    goal: '≥ 0.5×',
    ok: server / baseline >= 0.5,
  };
}

async function fileDownload(target: Target, work: string) {
  // A font is one file whose inspection reads only its signature: 'wOF2' then 50 MB of bytes.
  const bytes = Buffer.concat([Buffer.from('wOF2'), randomBytes(BIG - 4)]);
  const path = join(work, 'big.woff2');
  await writeFile(path, bytes);
  const expected = createHash('sha256').update(bytes).digest('hex');
  const blob = await call(target, 'POST', '/blobs', { source: createReadStream(path) });
  if (blob.status !== 201) throw new Error(`POST /blobs answered ${blob.status}`);
  const { asset } = await json<{ asset: { id: string } }>(
    target,
    'POST',
    '/assets',
    {
      request_key: randomUUID(),
      kind: 'font',
      title: 'Big',
      files: [{ path: 'big.woff2', blob: expected }],
    },
    201,
  );
  const stored = join(work, 'data', 'bytes', expected.slice(0, 2), expected);
  const filePath = `/assets/${asset.id}/files/big.woff2`;
  const hash = createHash('sha256');
  const checked = await call(target, 'GET', filePath, { sink: (chunk) => hash.update(chunk) });
  if (checked.status !== 200 || hash.digest('hex') !== expected)
    throw new Error('GET file: wrong bytes');
  const reads: number[] = [];
  const gets: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let size = 0;
    let start = performance.now();
    for await (const chunk of createReadStream(stored)) size += (chunk as Buffer).length;
    reads.push(performance.now() - start);
    start = performance.now();
    const res = await call(target, 'GET', filePath, { sink: (chunk) => (size -= chunk.length) });
    gets.push(performance.now() - start);
    if (res.status !== 200 || size !== 0)
      throw new Error(`GET file answered ${res.status}, ${size} bytes off`);
  }
  const server = mbps(BIG, median(gets));
  const baseline = mbps(BIG, median(reads));
  return {
    name: 'GET a 50 MB file vs reading it from disk (MB/s, median of 7)',
    value: `${server.toFixed(0)} vs ${baseline.toFixed(0)} MB/s (${(server / baseline).toFixed(2)}×)`,
    goal: '≥ 0.5×',
    ok: server / baseline >= 0.5,
  };
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  let c = 0xffffffff;
  for (const b of body) c = CRC[(c ^ b) & 0xff]! ^ (c >>> 8);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE((c ^ 0xffffffff) >>> 0, 8 + data.length);
  return out;
}
/** A real 300×250 (banner) greyscale PNG; `shade` makes each one different. */
function bannerPng(shade: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(300, 0);
  header.writeUInt32BE(250, 4);
  header[8] = 8;
  const row = Buffer.alloc(301, shade);
  row[0] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 250 }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A banner production of `count` files: production.json, images and style sheets. */
async function production(target: Target, count: number): Promise<string> {
  const files: unknown[] = [];
  for (let i = 0; files.length < count - 1; i++) {
    if (i % 2)
      files.push({
        path: `canvas/s${i}.css`,
        text: `.c${i}{color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`,
      });
    else files.push({ path: `canvas/i${i}.png`, blob: await blobOf(target, bannerPng(i % 256)) });
  }
  const { asset } = await json<{
    asset: { id: string; revision: { files: unknown[]; inspection: { verdict: string } } };
  }>(
    target,
    'POST',
    '/assets',
    {
      request_key: randomUUID(),
      kind: 'production',
      title: `P${count}`,
      medium: { id: 'banner', version: 1 },
      media_contract: { version: '1.0' },
      files,
    },
    201,
  );
  if (asset.revision.files.length !== count || asset.revision.inspection.verdict !== 'passed') {
    throw new Error(
      `production of ${count}: ${asset.revision.files.length} files, ${asset.revision.inspection.verdict}`,
    );
  }
  return asset.id;
}

async function blobOf(target: Target, bytes: Buffer): Promise<string> {
  const { Readable } = await import('node:stream');
  const res = await call(target, 'POST', '/blobs', { source: Readable.from([bytes]) });
  return (JSON.parse(res.body.toString()) as { sha256: string }).sha256;
}

/** Milliseconds of a POST /revisions that changes one style sheet to revision `n + 1`. */
async function changeOneFile(target: Target, id: string, n: number): Promise<number> {
  const body = {
    request_key: randomUUID(),
    base_revision: n,
    put: [{ path: 'canvas/s1.css', text: `.changed{order:${n}}` }],
  };
  const start = performance.now();
  const { asset } = await json<{
    asset: { revision: { number: number; inspection: { verdict: string } } };
  }>(target, 'POST', `/assets/${id}/revisions`, body, 201);
  const ms = performance.now() - start;
  if (asset.revision.number !== n + 1 || asset.revision.inspection.verdict !== 'passed')
    throw new Error('bad revision');
  return ms;
}

/** Revisions of both productions in turn, so that load on the machine falls on both alike. */
async function revisionCost(target: Target) {
  const smallId = await production(target, 5);
  const largeId = await production(target, 2000);
  const small: number[] = [];
  const large: number[] = [];
  for (let n = 1; n <= REVISIONS + 3; n++) {
    const [s, l] = [
      await changeOneFile(target, smallId, n),
      await changeOneFile(target, largeId, n),
    ];
    if (n <= 3) continue; // the first few warm caches and code
    small.push(s);
    large.push(l);
  }
  const [a, b] = [median(large), median(small)];
  return {
    name: 'POST /assets/{id}/revisions changing 1 file: 2,000-file vs 5-file production (ms, median of 30)',
    value: `${a.toFixed(1)} vs ${b.toFixed(1)} ms (${(a / b).toFixed(2)}×)`,
    goal: '≤ 1.5×',
    ok: a / b <= 1.5,
  };
}

/** Median ms of GET `url` (whole body counted), `ROUNDS` times, after one to warm up. */
async function timedGets(url: string, headers: Record<string, string>, size: number) {
  const times: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const start = performance.now();
    const got = await new Promise<number>((resolve, reject) => {
      const req = request(url, { headers }, (res) => {
        let n = 0;
        res.on('data', (chunk: Buffer) => (n += chunk.length));
        res.on('end', () => resolve(res.statusCode === 200 ? n : -1));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    if (got !== size) throw new Error(`GET ${url}: ${got} bytes of ${size}`);
    if (round > 0) times.push(performance.now() - start);
  }
  return median(times);
}

/** A whole 100 MB file: the service vs a bare Node static file server on the stored file. */
async function staticComparison(target: Target, work: string) {
  const size = 2 * BIG;
  const path = join(work, 'huge.woff2');
  await writeFile(path, Buffer.concat([Buffer.from('wOF2'), randomBytes(size - 4)]));
  const blob = await call(target, 'POST', '/blobs', { source: createReadStream(path) });
  const { sha256 } = JSON.parse(blob.body.toString()) as { sha256: string };
  const { asset } = await json<{ asset: { id: string } }>(
    target,
    'POST',
    '/assets',
    {
      request_key: randomUUID(),
      kind: 'font',
      title: 'Huge',
      files: [{ path: 'huge.woff2', blob: sha256 }],
    },
    201,
  );
  const bytesDir = join(work, 'data', 'bytes');
  const peer = fork(new URL(import.meta.url).pathname, ['static', bytesDir], {
    execArgv: ['--import', 'tsx', '--conditions=@galley/source'],
  });
  try {
    const [{ url }] = (await once(peer, 'message')) as [{ url: string }];
    const bare = await timedGets(`${url}/${sha256.slice(0, 2)}/${sha256}`, {}, size);
    const served = await timedGets(
      `${target.url}/api/v2/assets/${asset.id}/files/huge.woff2`,
      { authorization: `Bearer ${target.token}` },
      size,
    );
    return {
      name: 'GET a 100 MB file vs a bare Node static file server on the same file (MB/s, median of 7)',
      value: `${mbps(size, served).toFixed(0)} vs ${mbps(size, bare).toFixed(0)} MB/s (${(bare / served).toFixed(2)}×)`,
      goal: '≥ 0.8×',
      ok: bare / served >= 0.8,
    };
  } finally {
    peer.send('stop');
    await once(peer, 'exit');
  }
}

// Last, so every constant above is initialized before either role runs.
if (process.argv[2] === 'serve') await serveBenchChild(process.argv[3]!);
else if (process.argv[2] === 'static') serveStatic(process.argv[3]!);
else await main();
