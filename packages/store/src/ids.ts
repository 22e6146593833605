// Also its own entry, `@galley/store/ids`: the CLI's remote commands hash with it without
// loading the store (database drivers and all), so it imports nothing but node:crypto.
import { hash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 20; // 20 base-36 characters: about 103 bits of randomness

/** A random, opaque, prefixed identifier such as `prj_3k9x…` (prefix without the underscore). */
export function newId(prefix: string): string {
  let out = '';
  while (out.length < ID_LENGTH) {
    for (const byte of randomBytes(ID_LENGTH * 2)) {
      // 252 = 7 * 36: rejecting the top values keeps every character equally likely.
      if (byte < 252 && out.length < ID_LENGTH) out += ALPHABET[byte % 36];
    }
  }
  return `${prefix}_${out}`;
}

/** `bytes` random bytes as base64url without padding (32 bytes give 43 characters). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** One call, no Hash object: several times quicker on the short inputs of every request. */
export function sha256Hex(value: string | Uint8Array): string {
  return hash('sha256', value, 'hex');
}
