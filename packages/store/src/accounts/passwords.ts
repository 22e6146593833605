import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/**
 * OWASP's Password Storage Cheat Sheet: Argon2id with 19 MiB, 2 iterations, 1 lane (the
 * library's default algorithm is Argon2id; the parameters travel inside the PHC string, so they
 * can be raised later without breaking logins).
 */
const ARGON2ID = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };
const ARGON2ID_PREFIX = `$argon2id$v=19$m=${ARGON2ID.memoryCost},t=${ARGON2ID.timeCost},p=${ARGON2ID.parallelism}$`;

/**
 * Hashes (and checks) run on libuv's threads, off the event loop, at most this many at once:
 * each holds 19 MiB and a thread for tens of milliseconds, so a burst of logins queues here
 * instead of taking the memory and every thread file and DNS work also need.
 */
const CONCURRENT_HASHES = 2;
const hashing = pLimit(CONCURRENT_HASHES);

/** A PHC string `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. */
export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, ARGON2ID));
}

/**
 * Whether `password` matches `stored`, and whether `stored` should be replaced by a new hash
 * (one made before Argon2id, or with weaker parameters) now that the password is known.
 */
export async function verifyPassword(
  password: string,
  stored: string,
): Promise<{ ok: boolean; rehash: boolean }> {
  const ok = await hashing(() =>
    stored.startsWith('scrypt$') ? verifyScrypt(password, stored) : verifyArgon2(password, stored),
  );
  return { ok, rehash: ok && !stored.startsWith(ARGON2ID_PREFIX) };
}

async function verifyArgon2(password: string, stored: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false; // not a hash this library can read
  }
}

// The hashes of earlier releases: `scrypt$N$r$p$<salt base64url>$<key base64url>`, checked until
// their account's next login replaces them.
const SCRYPT_KEY_LENGTH = 64;

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, key] = stored.split('$');
  if (!n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await new Promise<Buffer>((resolve, reject) => {
    const options = { N: +n, r: +r, p: +p, maxmem: 256 * +n * +r };
    scryptCallback(
      password,
      Buffer.from(salt, 'base64url'),
      SCRYPT_KEY_LENGTH,
      options,
      (err, k) => (err ? reject(err) : resolve(k)),
    );
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A one-time password a person can type: 20 characters from an unambiguous alphabet. */
export function generatePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let out = '';
  for (const byte of randomBytes(64)) {
    if (byte < 224 && out.length < 20) out += alphabet[byte % 56]; // 224 = 4 * 56: unbiased
  }
  return out.length === 20 ? out : generatePassword();
}
