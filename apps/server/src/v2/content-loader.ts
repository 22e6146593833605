import { formatOfPath } from '@galley/core';
import type { ByteStore } from '@galley/store';
import { assetProblem } from './problems.js';

/** Binary files above this size are inspected from their first bytes only. */
const WHOLE_BINARY_BYTES = 16 * 1024 * 1024;
/** Enough for any signature and image header the inspection reads. */
const BINARY_PREFIX_BYTES = 1024 * 1024;
/** Formats inspected as text: decoded, parsed or validated whole. */
const TEXT_FORMATS = new Set([
  'html',
  'css',
  'js',
  'mjs',
  'json',
  'txt',
  'xml',
  'webmanifest',
  'svg',
]);
const PARALLEL_READS = 8;

export interface StoredContent {
  path: string;
  sha256: string;
  size: number;
}

/**
 * Reads stored files into memory for inspection (the core judges bytes, not streams). A large
 * image or font is read only as far as its header, so inspecting a 200 MB blob does not hold
 * 200 MB.
 */
export class ContentLoader {
  readonly #bytes: ByteStore;

  constructor(bytes: ByteStore) {
    this.#bytes = bytes;
  }

  async load(files: readonly StoredContent[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const file = files[next++]!;
        out.set(file.path, await this.#read(file));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, files.length) }, worker));
    return out;
  }

  async #read(file: StoredContent): Promise<Uint8Array> {
    const partial =
      file.size > WHOLE_BINARY_BYTES && !TEXT_FORMATS.has(formatOfPath(file.path) ?? '');
    const stream = await this.#bytes.read(
      file.sha256,
      partial ? { start: 0, end: BINARY_PREFIX_BYTES - 1 } : undefined,
    );
    if (!stream) {
      throw assetProblem('content_erased', `The content of ${file.path} was erased.`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}
