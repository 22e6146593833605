import { describe, expect, it } from 'vitest';
import { StampedCache } from '../src/stamped-cache.js';
import type { Stamp } from '../src/stamped-cache.js';

describe('StampedCache', () => {
  it('remembers a value read after a miss while nothing moved', () => {
    const cache = new StampedCache<string>(() => [7]);
    const miss = cache.lookup('k');
    expect(miss.value).toBeUndefined();
    cache.remember('k', 'v', miss.since);
    expect(cache.lookup('k').value).toBe('v');
  });

  it('remembers null as a value (an absent row), apart from a miss', () => {
    const cache = new StampedCache<string | null>(() => [7]);
    cache.remember('k', null, cache.lookup('k').since);
    expect(cache.lookup('k').value).toBeNull();
  });

  it('forgets everything once any number of the stamp moved', () => {
    for (const next of [
      [1, 1],
      [2, 1],
    ]) {
      let stamp: Stamp = [1, 0];
      const cache = new StampedCache<string>(() => stamp);
      cache.remember('k', 'v', cache.lookup('k').since);
      stamp = next;
      expect(cache.lookup('k').value).toBeUndefined();
    }
  });

  it('forgets everything on forgetAll (a change this process made that no stamp shows)', () => {
    const cache = new StampedCache<string>(() => [1]);
    cache.remember('k', 'v', cache.lookup('k').since);
    cache.forgetAll();
    expect(cache.lookup('k').value).toBeUndefined();
  });

  it('keeps no value whose read raced a change in this process or elsewhere', () => {
    let stamp: Stamp = [1];
    const cache = new StampedCache<string>(() => stamp);
    const before = cache.lookup('k');
    cache.forgetAll(); // this process revoked a token while the read was under way
    cache.remember('k', 'stale', before.since);
    expect(cache.lookup('k').value).toBeUndefined();

    const again = cache.lookup('k');
    stamp = [2]; // another connection committed while the read was under way
    cache.remember('k', 'stale', again.since);
    expect(cache.lookup('k').value).toBeUndefined();
  });

  it('remembers nothing without a stamp (PostgreSQL) or before the connection opens', () => {
    const none = new StampedCache<string>(undefined);
    expect(none.lookup('k')).toEqual({ value: undefined, since: undefined });
    none.remember('k', 'v', none.lookup('k').since);
    expect(none.lookup('k').value).toBeUndefined();
    const unopened = new StampedCache<string>(() => undefined);
    unopened.remember('k', 'v', unopened.lookup('k').since);
    expect(unopened.lookup('k').value).toBeUndefined();
  });

  it('keeps what it remembers across a write it was told of, and only that write', () => {
    /** `seen` before the write, the rows written then, and the stamp the next lookup reads. */
    const absorbed = (seen: Stamp, rowsWritten: number, next: Stamp) => {
      let stamp = seen;
      const cache = new StampedCache<string>(() => stamp);
      cache.remember('k', 'v', cache.lookup('k').since);
      cache.remember('gone', 'v', cache.lookup('gone').since);
      cache.absorb({ rowsWritten, rows: 1 }, (entries) => entries.delete('gone'));
      stamp = next;
      return [cache.lookup('k').value, cache.lookup('gone').value];
    };
    expect(absorbed([1, 5], 6, [1, 6])).toEqual(['v', undefined]);
    // Other rows written too on this connection since the last lookup: nothing is kept.
    expect(absorbed([1, 5], 7, [1, 7])).toEqual([undefined, undefined]);
    // Another connection committed (before the write or after it): the next lookup sees it.
    expect(absorbed([1, 5], 6, [2, 6])).toEqual([undefined, undefined]);
  });
});
