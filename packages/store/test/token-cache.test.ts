import { describe, expect, it } from 'vitest';
import { TokenCache } from '../src/accounts/token-cache.js';
import type { CachedToken } from '../src/accounts/token-cache.js';

const entry: CachedToken = {
  account: { accountNumber: 1001, email: 'a@example.org', name: 'A', createdAt: '2030-01-01' },
  tokenId: 'tok_1',
  expiresAtMs: Date.UTC(2031, 0, 1),
  lastUsedAtMs: 0,
};

describe('TokenCache', () => {
  it('remembers a token read after a miss, while nothing changed', () => {
    const cache = new TokenCache(() => 7);
    const miss = cache.lookup('h');
    expect(miss.entry).toBeUndefined();
    cache.remember('h', entry, miss.moment);
    expect(cache.lookup('h').entry).toBe(entry);
  });

  it('forgets everything when another connection committed (the stamp moved)', () => {
    let stamp = 1;
    const cache = new TokenCache(() => stamp);
    cache.remember('h', entry, cache.lookup('h').moment);
    stamp = 2;
    expect(cache.lookup('h').entry).toBeUndefined();
  });

  it('does not keep a read that raced a revocation in this process or elsewhere', () => {
    let stamp = 1;
    const cache = new TokenCache(() => stamp);
    const before = cache.lookup('h');
    cache.forgetAll(); // this process revoked a token while the read was under way
    cache.remember('h', entry, before.moment);
    expect(cache.lookup('h').entry).toBeUndefined();

    const again = cache.lookup('h');
    stamp = 2; // another connection committed while the read was under way
    cache.remember('h', entry, again.moment);
    expect(cache.lookup('h').entry).toBeUndefined();
  });

  it('remembers nothing without a change stamp (PostgreSQL) or before the connection opens', () => {
    const none = new TokenCache(undefined);
    none.remember('h', entry, none.lookup('h').moment);
    expect(none.lookup('h').entry).toBeUndefined();
    const unopened = new TokenCache(() => undefined);
    unopened.remember('h', entry, unopened.lookup('h').moment);
    expect(unopened.lookup('h').entry).toBeUndefined();
  });
});
