import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
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
import type { Staged } from './staging.js';
import { StagingFolder } from './staging.js';

const MiB = 1024 * 1024;
/**
 * Content that fits in one part is held in memory and sent from there; larger content is staged
 * on local disk while it is hashed (staging.ts), then sent under its hash. Multipart uploads send
 * parts of this size, four at a time (lib-storage's default queue): 32 MiB in memory at most.
 */
const PART_BYTES = 8 * MiB;
const PARTS_AT_ONCE = 4;
/**
 * Staged content up to this size goes in one PUT, larger content as a multipart upload: AWS
 * advises multipart from about 100 MB, where parallel parts beat one connection.
 */
const MULTIPART_ABOVE = 100 * MiB;
/** Attempts at one PUT from a staged file before the upload fails. */
const PUT_ATTEMPTS = 3;
/** How long a temporary object must have been left to count as abandoned (as on disk). */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** Where the store keeps its bytes, and where uploads wait to be sent. */
export interface S3ByteStoreOptions extends ObjectBytesOptions {
  /** The local folder for staged uploads; the system's temporary folder by default. */
  stagingDir?: string;
  /** Staged content larger than this goes as a multipart upload; 100 MiB by default. */
  multipartAbove?: number;
}

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
 * Bytes in an S3-compatible bucket under `<prefix><sha256>`. An upload is hashed as it arrives
 * (in memory up to one part, else staged in a local file) and only then sent, straight under its
 * hash, in one PUT of a known length or as a multipart upload: both are atomic in S3, so no
 * object ever appears under a hash name before it is whole, and nothing is sent for an upload
 * whose source fails or passes the limit. (Releases before staging sent large content to
 * `<prefix>tmp/<random>` and copied it; `init` still removes what those left.)
 */
export class S3ByteStore implements ByteStore {
  readonly bucket: string;
  readonly prefix: string;
  readonly #client: S3Client;
  readonly #staging: StagingFolder;
  readonly #multipartAbove: number;

  constructor(options: S3ByteStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.#staging = new StagingFolder(options.stagingDir ?? join(tmpdir(), 'galley-staging'));
    this.#multipartAbove = options.multipartAbove ?? MULTIPART_ABOVE;
    this.#client = new S3Client({
      // Only what S3 requires: other S3-compatible servers refuse or mangle the SDK's default
      // extra checksums (aws-chunked bodies). Content is checked by its SHA-256 on the way in.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: 10_000,
        // Until the answer's head arrives: bodies come from memory or a staged file, never from a
        // client, so this never waits on one.
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

  /**
   * Prepares the staging folder (removing what a crash left there) and removes the temporary
   * objects earlier releases' uploads cut off by a crash left (an hour old).
   */
  async init(): Promise<void> {
    await this.#staging.init();
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

  /** Earlier releases' temporary objects (uploads cut off), with when they were written. */
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
    const rest = toAsyncIterator(source);
    const first: Uint8Array[] = [];
    let size = 0;
    let ended = false;
    try {
      // The first part in memory: content that ends within it is sent from there.
      while (size <= PART_BYTES) {
        const next = await rest.next();
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
      if (!ended && size > limit) await rest.return?.();
    }
    if (ended) {
      const sha256 = hash.digest('hex');
      if (await this.has(sha256)) return { ok: true, sha256, size, created: false };
      await this.#guard('store an object', (c) =>
        c.send(this.#putCommand(sha256, Buffer.concat(first), size)),
      );
      return { ok: true, sha256, size, created: true };
    }
    const staged = await this.#staging.stage({ first, size, rest, hash, limit });
    if (staged === 'too_large') return { ok: false, code: 'too_large', limit };
    try {
      const { sha256 } = staged;
      if (await this.has(sha256)) return { ok: true, sha256, size: staged.size, created: false };
      await this.#send(staged);
      return { ok: true, sha256, size: staged.size, created: true };
    } finally {
      await staged.discard();
    }
  }

  /**
   * Sends staged bytes under their hash: in one PUT of a known length (retried from the file, as
   * the SDK does not retry a streamed body), or, above `multipartAbove`, as a multipart upload
   * (8 MiB parts, four at a time). Either is atomic in S3: the object appears whole or not at all.
   */
  async #send(staged: Staged): Promise<void> {
    if (staged.size > this.#multipartAbove) {
      const upload = new Upload({
        client: this.#client,
        params: {
          Bucket: this.bucket,
          Key: this.keyOf(staged.sha256),
          Body: staged.stream(),
          ContentLength: staged.size,
          ContentType: 'application/octet-stream',
        },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
      });
      // lib-storage aborts the multipart upload on failure: its parts go, no object was made.
      await this.#guard('upload an object', () => upload.done());
      return;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#client.send(this.#putCommand(staged.sha256, staged.stream(), staged.size));
        return;
      } catch (error) {
        if (attempt === PUT_ATTEMPTS || !isRetryable(error)) {
          throw new ObjectStorageError('store an object', error);
        }
      }
    }
  }

  #putCommand(sha256: string, body: Buffer | Readable, size: number): PutObjectCommand {
    return new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.keyOf(sha256),
      Body: body,
      ContentLength: size,
      ContentType: 'application/octet-stream',
    });
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

/** A failure another attempt may get past: no answer, a timeout, throttling or a server error. */
function isRetryable(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === undefined || status === 408 || status === 429 || status >= 500;
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
