// Benchmark of folder export (GET /api/v1/projects/{id}/folder), on loopback, side by side:
//   first byte of a 50 MB folder's ZIP (its digest known)        goal ≤ 50 ms
//   the whole ZIP, MB/s  vs  `zip -r -2 -n .png` on the same files  goal ≥ 1×
//   the first GET of a folder never zipped here (written once to learn its SHA-256): reference
// The folder: the test project's pages, 20 MB of style sheets and 30 MB of PNGs (stored, not
// deflated, by both). The server runs in a child process; each answer is checked.
// Writes <repo>/.bench/export.json. Run: pnpm --filter @galley/server bench
import { execFileSync, fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deflateSync } from 'node:zlib';
import { writeZip } from '@galley/core';
import { projectFolder } from '../test/v1/helpers.js';
import { median, serveBenchChild, writeBench } from './bench-child.js';

const MB = 1_000_000;
const ROUNDS = 7;

interface Target {
  url: string;
  token: string;
}

/** A valid greyscale PNG of random (incompressible) pixels, about `side`² bytes. */
function noisePng(side: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    let c = 0xffffffff;
    for (const b of body) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE((c ^ 0xffffffff) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8;
  const rows = Buffer.concat(
    Array.from({ length: side }, () => Buffer.concat([Buffer.from([0]), randomBytes(side)])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Style sheet text that deflates about as real CSS does (repeated words, varied numbers). */
function styleSheet(seed: number, bytes: number): Buffer {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = `.c${seed}-${i} { margin: ${(i * 7) % 97}px ${(seed + i) % 13}em; color: #${((seed * 9973 + i * 131) % 0xffffff).toString(16).padStart(6, '0')}; }\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join(''));
}

function bigFolder(): Map<string, Uint8Array> {
  const folder = projectFolder('Export bench');
  for (let i = 0; i < 200; i++) folder.set(`styles/s${i}.css`, styleSheet(i, 100_000));
  for (let i = 0; i < 60; i++) folder.set(`images/p${i}.png`, noisePng(707));
  return folder;
}

async function createProject(target: Target, folder: Map<string, Uint8Array>): Promise<string> {
  const form = new FormData();
  form.set('zip', new Blob([writeZip(folder)], { type: 'application/zip' }), 'folder.zip');
  const res = await fetch(`${target.url}/api/v1/projects/folder`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'x-editor-client': 'bench' },
    body: form,
  });
  const body = (await res.json()) as { id: string };
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}

/** GET the folder's ZIP: ms to the first body byte and to the end, checked against `sha256`. */
function download(target: Target, id: string) {
  return new Promise<{ firstByte: number; total: number; sha256: string; size: number }>(
    (resolve, reject) => {
      const start = performance.now();
      const url = `${target.url}/api/v1/projects/${id}/folder`;
      const req = request(url, { headers: { authorization: `Bearer ${target.token}` } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`GET folder: ${res.statusCode}`));
        const hash = createHash('sha256');
        let firstByte = 0;
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (!firstByte) firstByte = performance.now() - start;
          hash.update(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          const sha256 = hash.digest('hex');
          if (res.headers['x-content-sha256'] !== sha256) reject(new Error('wrong digest'));
          resolve({ firstByte, total: performance.now() - start, sha256, size });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    },
  );
}

/** Median ms of `zip -r -2 -n .png` over the folder written to disk; null without zip. */
async function zipCommand(work: string, folder: Map<string, Uint8Array>): Promise<number | null> {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const dir = join(work, 'folder');
  for (const [path, bytes] of folder) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const out = join(work, `out-${round}.zip`);
    const start = performance.now();
    execFileSync('zip', ['-q', '-r', '-2', '-n', '.png', out, '.'], { cwd: dir });
    times.push(performance.now() - start);
    if ((await stat(out)).size < 30 * MB) throw new Error('zip wrote too little');
  }
  return median(times);
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'galley-bench-export-'));
  const child = fork(new URL(import.meta.url).pathname, ['serve', join(work, 'data')], {
    execArgv: ['--import', 'tsx', '--conditions=@galley/source'],
  });
  try {
    const [target] = (await once(child, 'message')) as [Target];
    const folder = bigFolder();
    const folderBytes = [...folder.values()].reduce((n, bytes) => n + bytes.length, 0);
    const id = await createProject(target, folder);
    const cold = await download(target, id);
    const warm: Array<Awaited<ReturnType<typeof download>>> = [];
    for (let round = 0; round < ROUNDS; round++) warm.push(await download(target, id));
    if (warm.some((answer) => answer.sha256 !== cold.sha256)) throw new Error('bytes differ');
    const firstByte = median(warm.map((answer) => answer.firstByte));
    const total = median(warm.map((answer) => answer.total));
    const zipMs = await zipCommand(work, folder);
    const mbps = (ms: number) => folderBytes / MB / (ms / 1000);
    const rows = [
      {
        name: `GET folder, ${(folderBytes / MB).toFixed(0)} MB: first byte (ms, median of ${ROUNDS})`,
        value: `${firstByte.toFixed(1)} ms (whole answer ${total.toFixed(0)} ms)`,
        goal: '≤ 50 ms',
        ok: firstByte <= 50,
      },
      zipMs === null
        ? {
            name: 'GET folder vs `zip -r -2 -n .png` (MB/s of folder)',
            value: 'skipped: no zip command (apt-get install -y zip)',
            goal: '≥ 1×',
            ok: false,
          }
        : {
            name: 'GET folder vs `zip -r -2 -n .png` on the same files (MB/s of folder)',
            value: `${mbps(total).toFixed(0)} vs ${mbps(zipMs).toFixed(0)} MB/s (${(zipMs / total).toFixed(2)}×)`,
            goal: '≥ 1×',
            ok: zipMs / total >= 1,
          },
      {
        name: 'first GET of a folder never zipped here (written once to learn its SHA-256)',
        value: `first byte ${cold.firstByte.toFixed(0)} ms, whole ${cold.total.toFixed(0)} ms`,
        goal: 'reference',
        ok: true,
      },
    ];
    writeBench('export', 'Folder export (GET /api/v1/projects/{id}/folder), loopback', rows);
  } finally {
    child.send('stop');
    await once(child, 'exit');
    await rm(work, { recursive: true, force: true });
  }
}

// Last, so every constant above is initialized before either role runs.
if (process.argv[2] === 'serve') await serveBenchChild(process.argv[3]!);
else await main();
