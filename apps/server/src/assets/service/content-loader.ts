import { formatOfPath, textFormats } from '@galley/core';
import type { ByteStore } from '@galley/store';
import { WeightedLru } from '../../weighted-lru.js';
import { v2ProblemOf } from '../problems.js';

/** Binary files above this size are inspected from their first bytes only. */
const WHOLE_BINARY_BYTES = 16 * 1024 * 1024;
/** Enough for any signature and image header the inspection reads. */
const BINARY_PREFIX_BYTES = 1024 * 1024;
const PARALLEL_READS = 8;
/** Small files are kept in memory after a read, up to this many bytes in all. */
const CACHE_BYTES = 32 * 1024 * 1024;
const CACHE_ENTRY_BYTES = 256 * 1024;

export interface StoredContent {
  path: string;
  sha256: string;
  size: number;
}

/**
 * Reads stored files into memory for inspection (the core judges bytes, not streams). A large
 * image or font is read only as far as its header, so inspecting a 200 MB blob does not hold
 * 200 MB. Small files stay in a least-recently-used cache by SHA-256, so a new revision of a
 * large production reads only what changed: content never changes under its name, and a
 * revision only names bytes that are still stored (erasure and expiry delete only unused ones).
 */
export class ContentLoader {
  readonly #bytes: ByteStore;
  readonly #cache = new WeightedLru<string, Uint8Array>(CACHE_BYTES);

  constructor(bytes: ByteStore) {
    this.#bytes = bytes;
  }

  async load(files: readonly StoredContent[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    const missing: StoredContent[] = [];
    for (const file of files) {
      const cached = this.#cache.get(file.sha256);
      if (cached) {
        out.set(file.path, cached);
      } else {
        missing.push(file);
      }
    }
    let next = 0;
    const worker = async () => {
      while (next < missing.length) {
        const file = missing[next++]!;
        out.set(file.path, await this.#read(file));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, missing.length) }, worker));
    return out;
  }

  /** Keeps the whole content of a small file (read, or just written) for later inspections. */
  remember(sha256: string, bytes: Uint8Array): void {
    if (bytes.byteLength <= CACHE_ENTRY_BYTES) this.#cache.set(sha256, bytes, bytes.byteLength);
  }

  async #read(file: StoredContent): Promise<Uint8Array> {
    const partial =
      file.size > WHOLE_BINARY_BYTES && !textFormats.has(formatOfPath(file.path) ?? '');
    const stream = await this.#bytes.read(
      file.sha256,
      partial ? { start: 0, end: BINARY_PREFIX_BYTES - 1 } : undefined,
    );
    if (!stream) {
      throw v2ProblemOf('content_erased', { detail: `The content of ${file.path} was erased.` });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (!partial) this.remember(file.sha256, bytes);
    return bytes;
  }
}
