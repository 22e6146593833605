// The byte stores, one suite for both: on disk, and in an S3-compatible bucket (the s3rver that
// GALLEY_TEST_S3_URL names; skipped with the reason when it is not set).
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskByteStore } from '@galley/store';
import type { ByteStore } from '@galley/store';
import { S3ByteStore } from '../src/bytes/s3-byte-store.js';
import { freshBucket, s3SkipReason } from './s3.js';

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const MiB = 1024 * 1024;

interface Subject {
  bytes: ByteStore;
  /** The uploads in progress or left behind (temporary files or objects). */
  temporaries(): Promise<string[]>;
  close(): Promise<void>;
}

/** Bytes that differ from one MiB to the next, `size` of them, in chunks of 64 KiB. */
function* content(size: number, seed = 1): Generator<Uint8Array> {
  for (let at = 0; at < size; at += 64 * 1024) {
    const chunk = new Uint8Array(Math.min(64 * 1024, size - at));
    for (let i = 0; i < chunk.length; i += 4096) chunk[i] = (seed + at / 4096 + i) % 251;
    yield chunk;
  }
}

const whole = (size: number, seed?: number) => Buffer.concat([...content(size, seed)]);

function describeByteStore(name: string, skip: string | null, open: () => Promise<Subject>) {
  if (skip) console.warn(`skipped: ${name}: ${skip}`);
  describe.skipIf(!!skip)(name, () => {
    let subject: Subject;
    let bytes: ByteStore;
    beforeAll(async () => {
      subject = await open();
      bytes = subject.bytes;
    });
    afterAll(() => subject.close());

    it('names content by its SHA-256 and stores it once', async () => {
      const first = await bytes.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
      expect(first).toEqual({ ok: true, sha256: sha('hello world'), size: 11, created: true });
      const again = await bytes.put([new TextEncoder().encode('hello world')]);
      expect(again).toEqual({ ok: true, sha256: sha('hello world'), size: 11, created: false });
      expect(await bytes.has(sha('hello world'))).toBe(true);
      expect(await bytes.size(sha('hello world'))).toBe(11);
      expect(await subject.temporaries()).toEqual([]);
    });

    it('reads whole content and inclusive byte ranges', async () => {
      const put = await bytes.put([Buffer.from('0123456789')]);
      if (!put.ok) throw new Error('setup');
      expect(await text((await bytes.read(put.sha256))!)).toBe('0123456789');
      expect(await text((await bytes.read(put.sha256, { start: 2, end: 4 }))!)).toBe('234');
      expect(await bytes.read(sha('absent'))).toBeNull();
      expect(await bytes.read('../../etc/passwd')).toBeNull();
      expect(await bytes.size(sha('absent'))).toBeNull();
      expect(await bytes.has('../../etc/passwd')).toBe(false);
    });

    it('stores content of many parts while hashing it, and reads any range of it', async () => {
      const size = 20 * MiB + 123;
      const put = await bytes.put(Readable.from(content(size, 7)));
      const expected = whole(size, 7);
      expect(put).toEqual({ ok: true, sha256: sha(expected), size, created: true });
      if (!put.ok) return;
      expect((await buffer((await bytes.read(put.sha256))!)).equals(expected)).toBe(true);
      const range = { start: 8 * MiB - 5, end: 16 * MiB + 5 };
      const part = await buffer((await bytes.read(put.sha256, range))!);
      expect(part.equals(expected.subarray(range.start, range.end + 1))).toBe(true);
      expect(await bytes.put(content(size, 7))).toMatchObject({ ok: true, created: false });
      expect(await subject.temporaries()).toEqual([]);
    });

    it('refuses content over the limit while streaming and keeps nothing', async () => {
      function* endless() {
        for (let i = 0; i < 1000; i++) yield new Uint8Array(1024).fill(i % 251);
      }
      expect(await bytes.put(endless(), { maxBytes: 10_000 })).toEqual({
        ok: false,
        code: 'too_large',
        limit: 10_000,
      });
      expect(await subject.temporaries()).toEqual([]);
      expect((await bytes.put([new Uint8Array(10_000)], { maxBytes: 10_000 })).ok).toBe(true);
    });

    it('refuses content over the limit after several parts are sent, and keeps nothing', async () => {
      const limit = 18 * MiB;
      let pulled = 0;
      function* counted() {
        for (const chunk of content(40 * MiB, 3)) {
          pulled += chunk.byteLength;
          yield chunk;
        }
      }
      expect(await bytes.put(counted(), { maxBytes: limit })).toEqual({
        ok: false,
        code: 'too_large',
        limit,
      });
      expect(pulled).toBeLessThan(limit + MiB); // it stopped reading at the limit
      expect(await bytes.has(sha(whole(40 * MiB, 3)))).toBe(false);
      expect(await subject.temporaries()).toEqual([]);
    });

    it('keeps nothing when the source fails midway, early or after several parts', async () => {
      for (const after of [10, 20 * MiB]) {
        function* broken() {
          yield* content(after, 5);
          throw new Error('connection reset');
        }
        await expect(bytes.put(broken())).rejects.toThrow('connection reset');
        expect(await subject.temporaries()).toEqual([]);
      }
    });

    it('deletes', async () => {
      const put = await bytes.put([Buffer.from('bye')]);
      if (!put.ok) throw new Error('setup');
      expect(await bytes.delete(put.sha256)).toBe(true);
      expect(await bytes.delete(put.sha256)).toBe(false);
      expect(await bytes.size(put.sha256)).toBeNull();
      expect(await bytes.read(put.sha256)).toBeNull();
    });
  });
}

describeByteStore('DiskByteStore', null, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'galley-bytes-'));
  const bytes = new DiskByteStore(join(dir, 'bytes'));
  await bytes.init();
  return {
    bytes,
    temporaries: () => readdir(join(dir, 'bytes', 'tmp')),
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

describeByteStore('S3ByteStore', s3SkipReason, async () => {
  const bucket = await freshBucket();
  const stagingDir = await mkdtemp(join(tmpdir(), 'galley-staging-'));
  const bytes = new S3ByteStore({ ...bucket.options, stagingDir });
  await bytes.init();
  return {
    bytes,
    temporaries: async () => [
      ...(await bytes.temporaries()).map((t) => t.key),
      ...(await readdir(stagingDir)),
    ],
    close: async () => {
      bytes.close();
      await bucket.remove();
      await rm(stagingDir, { recursive: true, force: true });
    },
  };
});

describe('DiskByteStore on opening', () => {
  it('removes the temporary files a crash left, not ones still being written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'galley-bytes-'));
    try {
      await new DiskByteStore(join(dir, 'bytes')).init();
      const tmp = join(dir, 'bytes', 'tmp');
      const hourAndMore = new Date(Date.now() - 61 * 60 * 1000);
      await writeFile(join(tmp, 'left-by-a-crash.part'), 'half');
      await utimes(join(tmp, 'left-by-a-crash.part'), hourAndMore, hourAndMore);
      await writeFile(join(tmp, 'being-written.part'), 'half');
      await new DiskByteStore(join(dir, 'bytes')).init();
      expect(await readdir(tmp)).toEqual(['being-written.part']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!!s3SkipReason)('S3ByteStore in its bucket', () => {
  it('keeps content under <prefix><sha256>, and a temporary object that is young', async () => {
    const bucket = await freshBucket('team/galley');
    const bytes = new S3ByteStore(bucket.options);
    try {
      const put = await bytes.put([Buffer.from('where')]);
      if (!put.ok) throw new Error('setup');
      expect(await bucket.keys()).toEqual([`team/galley/${put.sha256}`]);
      // An upload in progress elsewhere (another process) is not abandoned: it stays.
      const other = new S3ByteStore({ ...bucket.options, prefix: 'team/galley/tmp/' });
      const young = await other.put([Buffer.from('in progress')]);
      if (!young.ok) throw new Error('setup');
      await bytes.init();
      expect(await bucket.keys()).toEqual([
        `team/galley/${put.sha256}`,
        `team/galley/tmp/${young.sha256}`,
      ]);
      other.close();
    } finally {
      bytes.close();
      await bucket.remove();
    }
  });

  it('answers an unreachable store as a storage failure', async () => {
    const { storageFailureOf } = await import('@galley/store');
    const bytes = new S3ByteStore({
      bucket: 'nowhere',
      prefix: '',
      client: {
        endpoint: 'http://127.0.0.1:9',
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
        maxAttempts: 1,
      },
    });
    const failure = await bytes.writable().catch((error: unknown) => error);
    expect(storageFailureOf(failure)).toBe('unavailable');
    const put = await bytes.put([Buffer.from('x')]).catch((error: unknown) => error);
    expect(storageFailureOf(put)).toBe('unavailable');
    bytes.close();
  });
});
