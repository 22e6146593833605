// Also its own entry, `@galley/store/ids`: the CLI's remote commands hash with it without
// loading the store (database drivers and all), so it imports nothing but node:crypto.
import { hash, randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 20; // 20 base-36 characters: about 103 bits of randomness

/** A random, opaque, prefixed identifier such as `prj_3k9x…` (prefix without the underscore). */
export function newId(prefix: string): string {
  let out = '';
  while (out.length < ID_LENGTH) {
    const byte = randomByte();
    // 252 = 7 * 36: rejecting the top values keeps every character equally likely.
    if (byte < 252) out += ALPHABET[byte % 36];
  }
  return `${prefix}_${out}`;
}

/**
 * Random bytes drawn from one buffer filled by the system's CSPRNG at a time, as Node's own
 * randomUUID does: a call of randomBytes each costs tens of microseconds, and a folder's pages
 * are given hundreds of ids in one transaction.
 */
const pool = new Uint8Array(4096);
let pooled = 0;
function randomByte(): number {
  if (pooled === 0) {
    randomFillSync(pool);
    pooled = pool.length;
  }
  pooled -= 1;
  const byte = pool[pooled]!;
  pool[pooled] = 0; // a byte is handed out once
  return byte;
}

/** `bytes` random bytes as base64url without padding (32 bytes give 43 characters). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** One call, no Hash object: several times quicker on the short inputs of every request. */
export function sha256Hex(value: string | Uint8Array): string {
  return hash('sha256', value, 'hex');
}
