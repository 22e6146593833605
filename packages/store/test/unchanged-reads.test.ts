import { describe, expect, it } from 'vitest';
import { UnchangedReads } from '../src/unchanged-reads.js';
import type { WriteStamp } from '../src/unchanged-reads.js';

describe('UnchangedReads', () => {
  let stamp: WriteStamp = { dataVersion: 1, changes: 0 };
  const reads = () => new UnchangedReads<string>(() => stamp);

  it('remembers a value read after a miss while nothing was written', () => {
    const cache = reads();
    const miss = cache.lookup('k');
    expect(miss.hit).toBe(false);
    cache.remember('k', 'v', miss.hit ? undefined : miss.since);
    expect(cache.lookup('k')).toEqual({ hit: true, value: 'v' });
  });

  it('forgets everything once this connection wrote a row or another one committed', () => {
    for (const next of [
      { dataVersion: 1, changes: 1 },
      { dataVersion: 2, changes: 1 },
    ]) {
      const cache = reads();
      const miss = cache.lookup('k');
      cache.remember('k', 'v', miss.hit ? undefined : miss.since);
      stamp = next;
      expect(cache.lookup('k').hit).toBe(false);
    }
  });

  it('keeps no value whose read raced a write', () => {
    const cache = reads();
    const miss = cache.lookup('k');
    stamp = { ...stamp, changes: stamp.changes + 1 }; // written while the read was under way
    cache.remember('k', 'stale', miss.hit ? undefined : miss.since);
    expect(cache.lookup('k').hit).toBe(false);
  });

  it('remembers nothing without a stamp (PostgreSQL)', () => {
    const cache = new UnchangedReads<string>(undefined);
    const miss = cache.lookup('k');
    expect(miss).toEqual({ hit: false, since: undefined });
    cache.remember('k', 'v', undefined);
    expect(cache.lookup('k').hit).toBe(false);
  });
});
