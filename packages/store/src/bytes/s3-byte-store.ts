import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ByteRange, ByteSource, ByteStore, PutResult } from './byte-store.js';
import { isSha256Hex } from './byte-store.js';
import type { ObjectBytesOptions } from './object-bytes-options.js';

const MiB = 1024 * 1024;
/**
 * Uploads are sent in parts of this size, four at a time (lib-storage's default queue): at most
 * 32 MiB of one upload is held in memory. Content that fits in one part is hashed before it is
 * sent, and goes straight under its name; larger content goes through a temporary key.
 */
const PART_BYTES = 8 * MiB;
const PARTS_AT_ONCE = 4;
/** How long a temporary object must have been left to count as abandoned (as on disk). */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** The object store failed or could not be reached: requests answer 503 (errors.ts). */
export class ObjectStorageError extends Error {
  readonly code: 'OBJECT_STORAGE_UNAVAILABLE' | 'OBJECT_STORAGE_FULL';

  constructor(action: string, cause: unknown) {
    const status = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const name = (cause as { name?: unknown }).name;
    super(`object storage: ${action} failed (${String(name)}${status ? ` ${status}` : ''})`, {
      cause,
    });
    this.name = 'ObjectStorageError';
    // 507 and MinIO's own code: the servers that run out of room say so this way.
    this.code =
      status === 507 || name === 'XMinioStorageFull'
        ? 'OBJECT_STORAGE_FULL'
        : 'OBJECT_STORAGE_UNAVAILABLE';
  }
}

/**
 * Bytes in an S3-compatible bucket under `<prefix><sha256>`. An object appears under its hash
 * only whole: content of one part is hashed first and sent in one PUT (atomic in S3); larger
 * content streams as a multipart upload to `<prefix>tmp/<random>` while it is hashed, and is
 * copied under its hash once complete. Nothing is ever written to a hash name before its bytes
 * are known to have that hash.
 */
export class S3ByteStore implements ByteStore {
  readonly bucket: string;
  readonly prefix: string;
  readonly #client: S3Client;

  constructor(options: ObjectBytesOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.#client = new S3Client({
      // Only what S3 requires: other S3-compatible servers refuse or mangle the SDK's default
      // extra checksums (aws-chunked bodies). Content is checked by its SHA-256 on the way in.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: 10_000,
        // Until the answer's head arrives: parts are in memory, so this never waits on a client.
        requestTimeout: 30_000,
        throwOnRequestTimeout: true,
        // Downloads to slow clients hold a connection each; the default 50 would queue them.
        httpAgent: { keepAlive: true, maxSockets: 256 },
        httpsAgent: { keepAlive: true, maxSockets: 256 },
      },
      ...options.client,
    });
  }

  keyOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new TypeError('not a lower-case SHA-256 hex digest');
    return `${this.prefix}${sha256}`;
  }

  get #tmpPrefix(): string {
    return `${this.prefix}tmp/`;
  }

  /** Removes the temporary objects that uploads cut off by a crash left (an hour old). */
  async init(): Promise<void> {
    const cutoff = Date.now() - ABANDONED_AFTER_MS;
    for (const key of await this.temporaries()) {
      if (key.modified < cutoff) await this.#deleteKey(key.key);
    }
  }

  /** Resolves when the bucket answers (readiness); else rejects. */
  async writable(): Promise<void> {
    await this.#guard('reach the bucket', (c) =>
      c.send(new HeadBucketCommand({ Bucket: this.bucket })),
    );
  }

  /** The temporary objects of uploads in progress or cut off, with when they were written. */
  async temporaries(): Promise<Array<{ key: string; modified: number }>> {
    const found: Array<{ key: string; modified: number }> = [];
    let token: string | undefined;
    do {
      const page = await this.#guard('list temporary objects', (c) =>
        c.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.#tmpPrefix,
            ContinuationToken: token,
          }),
        ),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) found.push({ key: item.Key, modified: item.LastModified?.getTime() ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  close(): void {
    this.#client.destroy();
  }

  async put(source: ByteSource, options: { maxBytes?: number } = {}): Promise<PutResult> {
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const hash = createHash('sha256');
    const chunks = toAsyncIterator(source);
    const first: Uint8Array[] = [];
    let size = 0;
    let ended = false;
    try {
      // The first part in memory: content that ends within it needs no temporary object.
      while (size <= PART_BYTES) {
        const next = await chunks.next();
        if (next.done) {
          ended = true;
          break;
        }
        size += next.value.byteLength;
        if (size > limit) return { ok: false, code: 'too_large', limit };
        hash.update(next.value);
        first.push(next.value);
      }
    } finally {
      if (!ended && size > limit) await chunks.return?.();
    }
    if (ended) {
      const sha256 = hash.digest('hex');
      if (await this.has(sha256)) return { ok: true, sha256, size, created: false };
      await this.#guard('store an object', (c) =>
        c.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: this.keyOf(sha256),
            Body: Buffer.concat(first),
            ContentLength: size,
            ContentType: 'application/octet-stream',
          }),
        ),
      );
      return { ok: true, sha256, size, created: true };
    }
    return this.#putLarge({ first, size, chunks, hash, limit });
  }

  /** Streams the rest through a multipart upload to a temporary key, then names it. */
  async #putLarge(started: {
    first: Uint8Array[];
    size: number;
    chunks: AsyncIterator<Uint8Array>;
    hash: ReturnType<typeof createHash>;
    limit: number;
  }): Promise<PutResult> {
    const { first, chunks, hash, limit } = started;
    let size = started.size;
    // Why the upload stopped, when the source stopped it (its error may not be what the upload
    // answers: aborting the multipart upload can fail too).
    let stoppedBy: { error: unknown } | 'too_large' | undefined;
    const counted = async function* () {
      yield* first;
      for (;;) {
        let next;
        try {
          next = await chunks.next();
        } catch (error) {
          stoppedBy = { error };
          throw error;
        }
        if (next.done) return;
        size += next.value.byteLength;
        if (size > limit) {
          stoppedBy = 'too_large';
          await chunks.return?.();
          throw new Error('over the limit');
        }
        hash.update(next.value);
        yield next.value;
      }
    };
    const tmpKey = `${this.#tmpPrefix}${randomBytes(12).toString('hex')}`;
    const body = Readable.from(counted(), { objectMode: false });
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.bucket, Key: tmpKey, Body: body },
      partSize: PART_BYTES,
      queueSize: PARTS_AT_ONCE,
    });
    try {
      await upload.done();
    } catch (error) {
      body.destroy();
      // lib-storage aborts the multipart upload: its parts go, and no object was made.
      if (stoppedBy === 'too_large') return { ok: false, code: 'too_large', limit };
      if (stoppedBy) throw stoppedBy.error;
      throw new ObjectStorageError('upload', error);
    }
    try {
      const sha256 = hash.digest('hex');
      if (await this.has(sha256)) return { ok: true, sha256, size, created: false };
      await this.#guard('name an uploaded object', (c) =>
        c.send(
          new CopyObjectCommand({
            Bucket: this.bucket,
            Key: this.keyOf(sha256),
            CopySource: `${this.bucket}/${encodeURIComponent(tmpKey).replace(/%2F/g, '/')}`,
            ContentType: 'application/octet-stream',
            MetadataDirective: 'REPLACE',
          }),
        ),
      );
      return { ok: true, sha256, size, created: true };
    } finally {
      await this.#deleteKey(tmpKey);
    }
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== null;
  }

  async size(sha256: string): Promise<number | null> {
    if (!isSha256Hex(sha256)) return null;
    try {
      const head = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }),
      );
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new ObjectStorageError('look for an object', error);
    }
  }

  async read(sha256: string, range?: ByteRange): Promise<Readable | null> {
    if (!isSha256Hex(sha256)) return null;
    try {
      const got = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(sha256),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // In Node the body is the HTTP answer itself (an IncomingMessage): a Readable.
      return got.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new ObjectStorageError('read an object', error);
    }
  }

  /** S3 deletes answer alike whether or not the object was there: looked for first. */
  async delete(sha256: string): Promise<boolean> {
    if (!(await this.has(sha256))) return false;
    await this.#deleteKey(this.keyOf(sha256));
    return true;
  }

  async #deleteKey(key: string): Promise<void> {
    await this.#guard('delete an object', (c) =>
      c.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }

  /** Runs `request`; its failure is the object store's (a 503), saying what was being done. */
  async #guard<T>(action: string, request: (client: S3Client) => Promise<T>): Promise<T> {
    try {
      return await request(this.#client);
    } catch (error) {
      throw new ObjectStorageError(action, error);
    }
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

function toAsyncIterator(source: ByteSource): AsyncIterator<Uint8Array> {
  if (Symbol.asyncIterator in source) return source[Symbol.asyncIterator]();
  const sync = source[Symbol.iterator]();
  return {
    next: () => Promise.resolve(sync.next()),
    return: () => Promise.resolve(sync.return?.() ?? { done: true, value: undefined }),
  };
}
