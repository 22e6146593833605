// The object store's uploads, staged on local disk while hashed and then sent under their hash,
// against the real S3-compatible server GALLEY_TEST_S3_URL names (skipped with the reason when
// it is not set): what reaches the bucket and what stays in the staging folder.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageFailureOf } from '@galley/store';
import { S3ByteStore } from '../src/bytes/s3-byte-store.js';
import type { S3ByteStoreOptions } from '../src/bytes/s3-byte-store.js';
import { freshBucket, s3SkipReason } from './s3.js';
import type { TestBucket } from './s3.js';

const MiB = 1024 * 1024;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `size` bytes, different for each seed, in 1 MiB chunks (as a request body arrives). */
function chunksOf(size: number, seed: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < size; at += MiB) {
    const chunk = Buffer.alloc(Math.min(MiB, size - at), (seed + at / MiB) % 251);
    chunk.writeUInt32BE(seed, 0);
    chunks.push(chunk);
  }
  return chunks;
}

if (s3SkipReason) console.warn(`skipped: S3ByteStore staging: ${s3SkipReason}`);

describe.skipIf(!!s3SkipReason)('S3ByteStore staging', () => {
  let bucket: TestBucket;
  let stagingDir: string;
  const stores: S3ByteStore[] = [];
  const open = (options: Partial<S3ByteStoreOptions> = {}) => {
    const store = new S3ByteStore({ ...bucket.options, stagingDir, ...options });
    stores.push(store);
    return store;
  };
  const staged = () => readdir(stagingDir);

  beforeEach(async () => {
    bucket = await freshBucket('galley');
    stagingDir = await mkdtemp(join(tmpdir(), 'galley-staging-'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) store.close();
    await bucket.remove();
    await rm(stagingDir, { recursive: true, force: true });
  });

  it('round-trips content staged on disk, sent in one PUT under its hash only', async () => {
    const bytes = open();
    await bytes.init();
    const chunks = chunksOf(12 * MiB + 5, 1);
    const put = await bytes.put(chunks);
    const whole = Buffer.concat(chunks);
    expect(put).toEqual({ ok: true, sha256: sha(whole), size: whole.length, created: true });
    expect(await bucket.keys()).toEqual([`galley/${sha(whole)}`]);
    expect((await buffer((await bytes.read(sha(whole)))!)).equals(whole)).toBe(true);
    expect(await staged()).toEqual([]);
  });

  it('sends a large object as a multipart upload straight under its hash', async () => {
    const bytes = open({ multipartAbove: 8 * MiB }); // 40 MiB: five parts
    const chunks = chunksOf(40 * MiB + 123, 2);
    const put = await bytes.put(chunks);
    const whole = Buffer.concat(chunks);
    expect(put).toMatchObject({ ok: true, sha256: sha(whole), size: whole.length });
    expect(await bucket.keys()).toEqual([`galley/${sha(whole)}`]);
    expect((await buffer((await bytes.read(sha(whole)))!)).equals(whole)).toBe(true);
    const range = await buffer(
      (await bytes.read(sha(whole), { start: 16 * MiB - 1, end: 16 * MiB }))!,
    );
    expect(range.equals(whole.subarray(16 * MiB - 1, 16 * MiB + 1))).toBe(true);
    expect(await staged()).toEqual([]);
  });

  it('stores duplicate content once, whichever way it was sent', async () => {
    const chunks = chunksOf(20 * MiB, 3);
    const first = await open().put(chunks);
    const again = await open({ multipartAbove: 8 * MiB }).put(chunks);
    expect([first.ok && first.created, again.ok && again.created]).toEqual([true, false]);
    expect(await bucket.keys()).toEqual([`galley/${sha(Buffer.concat(chunks))}`]);
    expect(await staged()).toEqual([]);
  });

  it('keeps a staged file nameless while it is written, so a killed process leaves none', async () => {
    const bytes = open();
    const seen: string[][] = [];
    async function* watched() {
      for (const [index, chunk] of chunksOf(16 * MiB, 4).entries()) {
        if (index === 12) seen.push(await staged());
        yield chunk;
      }
    }
    expect((await bytes.put(watched())).ok).toBe(true);
    expect(seen).toEqual([[]]);
  });

  it('sends nothing and keeps no staged file when the source fails mid-upload', async () => {
    const bytes = open();
    function* broken() {
      yield* chunksOf(20 * MiB, 5);
      throw new Error('connection reset');
    }
    await expect(bytes.put(broken())).rejects.toThrow('connection reset');
    expect(await bucket.keys()).toEqual([]);
    expect(await staged()).toEqual([]);
  });

  it('keeps no staged file when the bucket refuses the staged bytes, in one PUT or in parts', async () => {
    for (const multipartAbove of [undefined, 8 * MiB]) {
      const bytes = open({ bucket: `${bucket.bucket}-absent`, multipartAbove });
      const failure = await bytes.put(chunksOf(20 * MiB, 6)).catch((error: unknown) => error);
      expect(storageFailureOf(failure)).toBe('unavailable');
      expect(await staged()).toEqual([]);
    }
    expect(await bucket.keys()).toEqual([]);
  });

  it('removes what a crash left in the staging folder on opening', async () => {
    await writeFile(join(stagingDir, 'left-by-a-crash.part'), 'half');
    await open().init();
    expect(await staged()).toEqual([]);
  });
});
