// Benchmark of Galley's object store, side by side in one run: blob upload and whole-file download
// through S3ByteStore (hashed while staged on local disk, then sent under its name: in one PUT,
// its way up to 100 MiB, and as a multipart upload, its way above)  vs  the same transfer with
// the AWS SDK alone, against the same S3 server (goal ≥ 0.8×). The server is s3rver on
// loopback (scripts/start-test-s3.sh); without it the benchmark says why and measures nothing.
// Measures are interleaved in ROUNDS rounds and each figure is the median of its rounds.
// Writes <repo>/.bench/object-store.json. Run: pnpm --filter @galley/store bench
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { S3ByteStore } from '../src/bytes/s3-byte-store.js';
import { freshBucket } from '../test/s3.js';
import type { TestBucket } from '../test/s3.js';

const ROUNDS = 5;
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

async function objectStoreRows(bucket: TestBucket, stagingDir: string) {
  const galley = new S3ByteStore({ ...bucket.options, stagingDir });
  // The same store with the multipart way lowered to this size (what it does above 100 MiB).
  const galleyParts = new S3ByteStore({ ...bucket.options, stagingDir, multipartAbove: 8 * MiB });
  const sdk = new S3Client({
    ...bucket.options.client,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const base = Buffer.alloc(BLOB_BYTES, 7);
  const figures = {
    galleyUp: [] as number[],
    galleyPartsUp: [] as number[],
    sdkUp: [] as number[],
    galleyDown: [] as number[],
  };
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
      figures.galleyPartsUp.push(
        await rate(async () => {
          if (!(await galleyParts.put(chunked(freshBytes(base)))).ok) throw new Error('refused');
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
      // Both download the same object, in turn, each first in half the pairs: the first
      // download after the uploads pays for their aftermath (collected garbage here and in the
      // server, its files still being written), which went to whichever came first.
      const [throughGalley, withSdk] = [
        async () =>
          figures.galleyDown.push(
            await rate(async () => void (await drain((await galley.read(sha256))!))),
          ),
        async () =>
          sdkDown.push(
            await rate(async () => {
              const got = await sdk.send(
                new GetObjectCommand({ Bucket: bucket.bucket, Key: galley.keyOf(sha256) }),
              );
              await drain(got.Body as Readable);
            }),
          ),
      ];
      for (let twice = 0; twice < 2; twice++) {
        for (const download of [throughGalley, withSdk, withSdk, throughGalley]) await download();
      }
    }
  } finally {
    galley.close();
    galleyParts.close();
    sdk.destroy();
  }
  const up = median(figures.galleyUp) / median(figures.sdkUp);
  const partsUp = median(figures.galleyPartsUp) / median(figures.sdkUp);
  const down = median(figures.galleyDown) / median(sdkDown);
  const mbs = (value: number) => `${value.toFixed(0)} MB/s`;
  console.log(
    `upload ${up.toFixed(2)}× (multipart ${partsUp.toFixed(2)}×), download ${down.toFixed(2)}×`,
  );
  return [
    {
      name: `upload of a ${BLOB_BYTES / MiB} MiB blob (one PUT): Galley's object store vs the AWS SDK alone`,
      value: `${mbs(median(figures.galleyUp))} vs ${mbs(median(figures.sdkUp))} (${up.toFixed(2)}×)`,
      goal: '≥ 0.8×',
      ok: up >= 0.8,
    },
    {
      name: `the same upload as a multipart upload (Galley's way above 100 MiB) vs the AWS SDK alone`,
      value: `${mbs(median(figures.galleyPartsUp))} vs ${mbs(median(figures.sdkUp))} (${partsUp.toFixed(2)}×)`,
      goal: '≥ 0.8×',
      ok: partsUp >= 0.8,
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
  const stagingDir = mkdtempSync(join(tmpdir(), 'galley-bench-staging-'));
  try {
    write(
      await objectStoreRows(bucket, stagingDir),
      `s3rver on loopback (one bucket, path-style); ${ROUNDS} interleaved rounds, medians. Uploads are fed in 1 MiB chunks, as a request body arrives. Galley's upload hashes the bytes while it stages them on local disk, then sends them under their SHA-256 (no partial object under a content name): in one PUT of a known length up to 100 MiB, as a multipart upload of 8 MiB parts, four at once, above (second row, with that threshold lowered). The SDK's alone (lib-storage) streams 8 MiB parts, four at once, straight to its key as they arrive. On s3rver one PUT is quicker than a multipart upload, which it joins by rewriting the parts. Downloads: the same object (the blob Galley stored) through Galley's store and with the SDK alone, ${4 * ROUNDS} each, in turn and each first half the time (whichever comes first after the uploads pays for their aftermath).`,
    );
  } finally {
    await bucket.remove();
    rmSync(stagingDir, { recursive: true, force: true });
  }
}
