import type { Readable } from 'node:stream';

/** Where bytes come from: a Node stream, a web stream turned async iterable, or a generator. */
export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export type PutResult =
  | {
      ok: true;
      /** Lower-case hex SHA-256 of the bytes: also their name. */
      sha256: string;
      size: number;
      /** False when the same bytes were already stored. */
      created: boolean;
    }
  | { ok: false; code: 'too_large'; limit: number };

/** Inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Content-addressed bytes. A put is atomic: a reader sees either nothing or the whole content
 * under its SHA-256 name, never a partial file, and nothing stays behind when a put fails.
 */
export interface ByteStore {
  put(source: ByteSource, options?: { maxBytes?: number }): Promise<PutResult>;
  has(sha256: string): Promise<boolean>;
  /** Size in bytes, or null when absent. */
  size(sha256: string): Promise<number | null>;
  /** A stream of the bytes (or of `range`), or null when absent. */
  read(sha256: string, range?: ByteRange): Promise<Readable | null>;
  /** True when something was deleted. */
  delete(sha256: string): Promise<boolean>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}
