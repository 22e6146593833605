import { Inflate } from 'fflate';

/**
 * Compressed bytes handed to the inflater at a time. DEFLATE expands at most about 1032:1, so
 * one push can produce at most ~16.5 MB before we get to count it: that bounds the memory and
 * time an entry lying about its size can cost before it is stopped.
 */
const pushBytes = 16 * 1024;

export type InflateResult =
  | { readonly ok: true; readonly data: Uint8Array }
  /** The stream produced more than declared: a bomb or a lie; `produced` is a lower bound. */
  | { readonly ok: false; readonly problem: 'overflow'; readonly produced: number }
  | { readonly ok: false; readonly problem: 'underflow'; readonly produced: number }
  /** Not valid DEFLATE, or it ends early although the archive holds all the bytes it declares. */
  | { readonly ok: false; readonly problem: 'corrupt'; readonly produced: number };

/**
 * Inflates raw DEFLATE data that must produce exactly `size` bytes, counting what it actually
 * produces: the declared size is a claim to check, never a promise to trust.
 */
export function inflateExactly(compressed: Uint8Array, size: number): InflateResult {
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
