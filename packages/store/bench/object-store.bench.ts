// Benchmark of Galley's object store, side by side in one run: blob upload and whole-file download
// through S3ByteStore (hashing on the way, a temporary key, then its name)  vs  the same transfer
// with the AWS SDK alone, against the same S3 server (goal ≥ 0.8×). The server is s3rver on
// loopback (scripts/start-test-s3.sh); without it the benchmark says why and measures nothing.
// Measures are interleaved in ROUNDS rounds and each figure is the median of its rounds.
// Writes <repo>/.bench/object-store.json. Run: pnpm --filter @galley/store bench
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { S3ByteStore } from '../src/bytes/s3-byte-store.js';
import { freshBucket } from '../test/s3.js';
import type { TestBucket } from '../test/s3.js';

const ROUNDS = 3;
const MiB = 1024 * 1024;
const BLOB_BYTES = 64 * MiB;

const repo = join(new URL('.', import.meta.url).pathname, '../../..');

function write(rows: unknown[], notes: string): void {
  mkdirSync(join(repo, '.bench'), { recursive: true });
  const title = "Object storage: Galley's byte store vs the AWS SDK alone";
  writeFileSync(
    join(repo, '.bench', 'object-store.json'),
    `${JSON.stringify({ title, rows, notes }, null, 2)}\n`,
  );
}

/** The URL scripts/start-test-s3.sh prints, or why there is none. */
function s3Server(): { url?: string; reason?: string } {
  if (process.env.GALLEY_TEST_S3_URL) return { url: process.env.GALLEY_TEST_S3_URL };
  try {
    const script = join(repo, 'scripts', 'start-test-s3.sh');
    const url = execFileSync('bash', [script], { encoding: 'utf8' }).trim();
    return url ? { url } : { reason: 'start-test-s3.sh printed no URL' };
  } catch {
    return { reason: 'start-test-s3.sh could not start s3rver (run pnpm install first)' };
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** `size` bytes that differ from every other call's (a new head each time). */
function freshBytes(base: Buffer): Buffer {
  base.write(randomUUID(), 0, 'latin1');
  return base;
}

/** Feeds `bytes` in 1 MiB chunks, as a request body arrives. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += MiB) yield bytes.subarray(at, at + MiB);
    })(),
  );

async function drain(stream: Readable): Promise<number> {
  let size = 0;
  for await (const chunk of stream) size += (chunk as Buffer).length;
  return size;
}

/** MB/s of `run` (which moves BLOB_BYTES). */
async function rate(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return BLOB_BYTES / MiB / ((performance.now() - start) / 1000);
}

async function objectStoreRows(bucket: TestBucket) {
  const galley = new S3ByteStore(bucket.options);
  const sdk = new S3Client({
    ...bucket.options.client,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const base = Buffer.alloc(BLOB_BYTES, 7);
  const figures = { galleyUp: [] as number[], sdkUp: [] as number[], galleyDown: [] as number[] };
  const sdkDown: number[] = [];
  try {
    // Checked before timing: Galley names the bytes by their hash and gives them back whole.
    const check = freshBytes(base);
    const put = await galley.put(chunked(check));
    const hash = createHash('sha256').update(check).digest('hex');
    if (!put.ok || put.sha256 !== hash) throw new Error('the object store named the bytes wrongly');
    if ((await drain((await galley.read(hash))!)) !== BLOB_BYTES) throw new Error('short read');
    for (let round = 0; round < ROUNDS; round++) {
      let sha256 = '';
      figures.galleyUp.push(
        await rate(async () => {
          const done = await galley.put(chunked(freshBytes(base)));
          if (!done.ok) throw new Error('refused');
          sha256 = done.sha256;
        }),
      );
      const key = `sdk/${randomUUID()}`;
      figures.sdkUp.push(
        await rate(async () => {
          const upload = new Upload({
            client: sdk,
            params: { Bucket: bucket.bucket, Key: key, Body: chunked(freshBytes(base)) },
            partSize: 8 * MiB,
            queueSize: 4,
          });
          await upload.done();
        }),
      );
      figures.galleyDown.push(
        await rate(async () => void (await drain((await galley.read(sha256))!))),
      );
      sdkDown.push(
        await rate(async () => {
          const got = await sdk.send(new GetObjectCommand({ Bucket: bucket.bucket, Key: key }));
          await drain(got.Body as Readable);
        }),
      );
    }
  } finally {
    galley.close();
    sdk.destroy();
  }
  const up = median(figures.galleyUp) / median(figures.sdkUp);
  const down = median(figures.galleyDown) / median(sdkDown);
  const mbs = (value: number) => `${value.toFixed(0)} MB/s`;
  console.log(`upload ${up.toFixed(2)}×, download ${down.toFixed(2)}×`);
  return [
    {
      name: `upload of a ${BLOB_BYTES / MiB} MiB blob: Galley's object store vs the AWS SDK alone`,
      value: `${mbs(median(figures.galleyUp))} vs ${mbs(median(figures.sdkUp))} (${up.toFixed(2)}×)`,
      goal: '≥ 0.8×',
      ok: up >= 0.8,
    },
    {
      name: `whole-file download of it: Galley's object store vs the AWS SDK alone`,
      value: `${mbs(median(figures.galleyDown))} vs ${mbs(median(sdkDown))} (${down.toFixed(2)}×)`,
      goal: '≥ 0.8×',
      ok: down >= 0.8,
    },
  ];
}

const s3 = s3Server();
if (!s3.url) {
  console.log(`skipped: the object-store benchmark: ${s3.reason}`);
  write([], `Not measured: ${s3.reason}.`);
} else {
  process.env.GALLEY_TEST_S3_URL = s3.url;
  const bucket = await freshBucket();
  try {
    write(
      await objectStoreRows(bucket),
      `s3rver on loopback (one bucket, path-style); ${ROUNDS} interleaved rounds, medians. Uploads are fed in 1 MiB chunks, as a request body arrives; both sides send 8 MiB parts, four at once. Galley's upload hashes the bytes on the way, sends them to a temporary key, then copies them under their SHA-256 and deletes the temporary (no partial object under a content name); the SDK's alone goes straight to its key.`,
    );
  } finally {
    await bucket.remove();
  }
}
