import { Inflate, inflateSync } from 'fflate';

/**
 * Compressed bytes handed to the streaming inflater at a time. DEFLATE expands at most about
 * 1032:1, so one push produces at most ~16.5 MB before we get to count it: that bounds the memory
 * and time an entry lying about its size can cost before it is stopped.
 */
const pushBytes = 16 * 1024;

/**
 * Entries up to this compressed size are inflated in one call straight into a buffer of the
 * declared size (no intermediate copies, as fast as fflate's own unzip). fflate drops writes past
 * the end of a fixed buffer, so a lie costs at most ~1032 × this in wasted decoding (~0.2 s) and
 * no memory; it is then re-read by the counting stream, which says exactly what went wrong.
 */
const directBytes = 192 * 1024;

export type InflateResult =
  | { readonly ok: true; readonly data: Uint8Array }
  /** The stream produced more than declared: a bomb or a lie; `produced` is a lower bound. */
  | { readonly ok: false; readonly problem: 'overflow'; readonly produced: number }
  | { readonly ok: false; readonly problem: 'underflow'; readonly produced: number }
  /** Not valid DEFLATE, or it ends early although the archive holds all the bytes it declares. */
  | { readonly ok: false; readonly problem: 'corrupt'; readonly produced: number };

/** One call into a buffer one byte larger than declared: any other length is a lie. */
function inflateDirectly(compressed: Uint8Array, size: number): Uint8Array | undefined {
  try {
    const out = inflateSync(compressed, { out: new Uint8Array(size + 1) });
    return out.length === size ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Inflates in bounded steps, counting what each step produces and stopping past `size`. */
function inflateCounting(compressed: Uint8Array, size: number): InflateResult {
  const out = new Uint8Array(size);
  let produced = 0;
  const inflater = new Inflate((chunk) => {
    if (produced + chunk.length <= size) out.set(chunk, produced);
    produced += chunk.length;
  });
  try {
    let at = 0;
    do {
      const next = Math.min(at + pushBytes, compressed.length);
      inflater.push(compressed.subarray(at, next), next === compressed.length);
      if (produced > size) return { ok: false, problem: 'overflow', produced };
      at = next;
    } while (at < compressed.length);
  } catch {
    return { ok: false, problem: 'corrupt', produced };
  }
  if (produced < size) return { ok: false, problem: 'underflow', produced };
  return { ok: true, data: out };
}

/**
 * A platform's own raw DEFLATE decoder and CRC-32 where it has faster ones than these (Node's
 * zlib, native code that needs no warming up), passed in as writeZip's deflate is. The decoder is
 * trusted only with an entry it inflates whole to exactly its declared size; any other entry is
 * read again by core's own counting inflater, so a refusal says the same whichever decoded.
 */
export interface ZipCodec {
  /** `compressed` inflated, when it is valid DEFLATE of exactly `size` bytes; else undefined. */
  inflateRaw(compressed: Uint8Array, size: number): Uint8Array | undefined;
  /** The CRC-32 of `data` (ISO 3309, the ZIP polynomial) as an unsigned 32-bit integer. */
  crc32(data: Uint8Array): number;
}

/**
 * Inflates raw DEFLATE data that must produce exactly `size` bytes, counting what it actually
 * produces: the declared size is a claim to check, never a promise to trust.
 */
export function inflateExactly(
  compressed: Uint8Array,
  size: number,
  codec?: ZipCodec,
): InflateResult {
  const decoded = codec?.inflateRaw(compressed, size);
  if (decoded?.length === size) return { ok: true, data: decoded };
  if (compressed.length <= directBytes) {
    const direct = inflateDirectly(compressed, size);
    if (direct !== undefined) return { ok: true, data: direct };
  }
  return inflateCounting(compressed, size);
}
