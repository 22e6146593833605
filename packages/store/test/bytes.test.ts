import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskByteStore } from '@galley/store';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('DiskByteStore', () => {
  let dir: string;
  let bytes: DiskByteStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'galley-bytes-'));
    bytes = new DiskByteStore(join(dir, 'bytes'));
    await bytes.init();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names content by its SHA-256 and stores it once', async () => {
    const first = await bytes.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(first).toEqual({ ok: true, sha256: sha('hello world'), size: 11, created: true });
    const again = await bytes.put([new TextEncoder().encode('hello world')]);
    expect(again).toEqual({ ok: true, sha256: sha('hello world'), size: 11, created: false });
    expect(await bytes.has(sha('hello world'))).toBe(true);
    expect(await bytes.size(sha('hello world'))).toBe(11);
    expect(await readdir(join(dir, 'bytes', 'tmp'))).toEqual([]);
  });

  it('reads whole content and inclusive byte ranges', async () => {
    const put = await bytes.put([Buffer.from('0123456789')]);
    if (!put.ok) throw new Error('setup');
    expect(await text((await bytes.read(put.sha256))!)).toBe('0123456789');
    expect(await text((await bytes.read(put.sha256, { start: 2, end: 4 }))!)).toBe('234');
    expect(await bytes.read(sha('absent'))).toBeNull();
    expect(await bytes.read('../../etc/passwd')).toBeNull();
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
    expect(await readdir(join(dir, 'bytes', 'tmp'))).toEqual([]);
    expect((await bytes.put([new Uint8Array(10_000)], { maxBytes: 10_000 })).ok).toBe(true);
  });

  it('keeps nothing when the source fails midway', async () => {
    function* broken() {
      yield new Uint8Array(10);
      throw new Error('connection reset');
    }
    await expect(bytes.put(broken())).rejects.toThrow('connection reset');
    expect(await readdir(join(dir, 'bytes', 'tmp'))).toEqual([]);
  });

  it('removes on opening the temporary files a crash left, not ones still being written', async () => {
    const tmp = join(dir, 'bytes', 'tmp');
    const hourAndMore = new Date(Date.now() - 61 * 60 * 1000);
    await writeFile(join(tmp, 'left-by-a-crash.part'), 'half');
    await utimes(join(tmp, 'left-by-a-crash.part'), hourAndMore, hourAndMore);
    await writeFile(join(tmp, 'being-written.part'), 'half');
    await new DiskByteStore(join(dir, 'bytes')).init();
    expect(await readdir(tmp)).toEqual(['being-written.part']);
    await rm(join(tmp, 'being-written.part'));
  });

  it('deletes', async () => {
    const put = await bytes.put([Buffer.from('bye')]);
    if (!put.ok) throw new Error('setup');
    expect(await bytes.delete(put.sha256)).toBe(true);
    expect(await bytes.delete(put.sha256)).toBe(false);
    expect(await bytes.size(put.sha256)).toBeNull();
  });
});
