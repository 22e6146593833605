import { setImmediate as nextTurn } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import { writeZipAsync } from '@galley/core';
import type { AsyncRawDeflate, Folder } from '@galley/core';
import type { ByteStore, FileEntry, Store } from '@galley/store';
import { sha256Hex } from '@galley/store';
import type { WorkPool } from '../../pool/work-pool.js';
import { WeightedLru } from '../../weighted-lru.js';
import type { HashedFolder } from './folder-state.js';

/** How the ZIPs the service writes are deflated and checked (see `FolderFiles.zipCoding`). */
export interface ZipCoding {
  deflate: AsyncRawDeflate;
  crc32: (data: Uint8Array) => number;
}

const PARALLEL_PUTS = 8;
/** A file is written (and hashed again by the byte store) a piece of this size per turn. */
const PUT_PIECE_BYTES = 1024 * 1024;

/**
 * Folder files in the content-addressed byte store, with recently read contents kept in memory
 * (safe to keep: a content's name is its hash, so it never changes). The byte store is shared
 * with the asset interface, which deletes bytes nothing uses: every content written here is kept
 * for good first (ContentRepository.keepForever), as every revision stays readable.
 */
export class FolderFiles {
  readonly #bytes: ByteStore;
  readonly #content: Store['content'];
  readonly #cache: WeightedLru<string, Uint8Array>;
  /**
   * Every ZIP the service writes is deflated at the fixed level (the same folder gives the same
   * bytes): a file of the pool's size in a worker, a smaller one at once (a 100 KB style sheet in
   * about half a millisecond), each with the CRC-32 of node:zlib, several times faster than the
   * core's own, which took most of the event loop's time of an export.
   */
  readonly zipCoding: ZipCoding;

  constructor(options: {
    store: Pick<Store, 'bytes' | 'content'>;
    cacheBytes: number;
    pool: WorkPool;
  }) {
    const { store, pool } = options;
    this.#bytes = store.bytes;
    this.#content = store.content;
    this.#cache = new WeightedLru(options.cacheBytes);
    this.zipCoding = {
      // A view into a larger buffer (a file of an uploaded ZIP) would take all of it along.
      deflate: (data) => {
        const size = data.byteLength;
        const own = !pool.offloads(size) || size === data.buffer.byteLength ? data : data.slice();
        return pool.run('deflate', own, { size });
      },
      crc32: (data) => crc32(data),
    };
  }

  async file(sha256: string): Promise<Uint8Array> {
    const cached = this.#cache.get(sha256);
    if (cached) return cached;
    const stream = await this.#bytes.read(sha256);
    if (!stream) throw new Error(`content ${sha256} is missing from the byte store`);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const bytes = new Uint8Array(Buffer.concat(chunks));
    this.#cache.set(sha256, bytes, bytes.byteLength);
    return bytes;
  }

  /** The whole folder of a manifest, in memory. */
  async folder(manifest: ReadonlyMap<string, FileEntry>): Promise<Map<string, Uint8Array>> {
    const entries = [...manifest];
    const out = new Map<string, Uint8Array>();
    await inBatches(entries, PARALLEL_PUTS, async ([path, entry]) => {
      out.set(path, await this.file(entry.sha256));
    });
    return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** Stores every file (contents already present are not written again). */
  async store({ folder, digests }: HashedFolder): Promise<Map<string, FileEntry>> {
    const hashed = [...folder].map(([path, bytes]) => [path, bytes, digests.get(path)!] as const);
    await this.#content.keepForever(hashed.map(([, , sha256]) => sha256));
    const files = new Map<string, FileEntry>();
    await inBatches(hashed, PARALLEL_PUTS, async ([path, bytes, sha256]) => {
      files.set(path, await this.#write(bytes, sha256));
    });
    return files;
  }

  async put(bytes: Uint8Array): Promise<FileEntry> {
    const sha256 = sha256Hex(bytes);
    await this.#content.keepForever([sha256]);
    return this.#write(bytes, sha256);
  }

  /** Writes a content kept for good, unless it is present already. */
  async #write(bytes: Uint8Array, sha256: string): Promise<FileEntry> {
    if (!(await this.#bytes.has(sha256))) {
      const put = await this.#bytes.put(piecesOf(bytes));
      if (!put.ok) throw new Error('the byte store refused a folder file');
    }
    this.#cache.set(sha256, bytes, bytes.byteLength);
    return { sha256, size: bytes.byteLength };
  }

  /** The folder as the service's deterministic ZIP. */
  zip(folder: Folder): Promise<Uint8Array> {
    return writeZipAsync(folder, this.zipCoding);
  }
}

function* piecesOf(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += PUT_PIECE_BYTES) {
    yield bytes.subarray(at, at + PUT_PIECE_BYTES);
  }
}

/**
 * Runs `fn` over `items`, `size` at a time, with a turn of the event loop between batches: a
 * batch whose contents are all present already settles without any I/O (the byte store's check
 * is a stat), and a folder of thousands of them held the loop for tens of ms in one piece.
 */
async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(fn));
    await nextTurn();
  }
}
