// The service's rate-limit counters in PostgreSQL (the `rate_limits` table on a real server):
// a process's concurrent requests for one key are counted in one write at a time, with the
// outcomes of counting them one by one.
import { CompiledQuery } from 'kysely';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { person, siteOf } from '../../../../packages/store/test/projects-fixtures.js';
import { describePostgres } from '../../../../packages/store/test/stores.js';
import { postgresCounter } from '../../src/http/rate-limit.js';
import type { QueryClient } from '../../src/http/rate-limit.js';

describePostgres('rate-limit counting', (t) => {
  /** The store's pool as RateLimiterPostgres calls it, counting the writes. */
  function countingClient() {
    const client = {
      writes: 0,
      query: async (query: { text: string; values?: unknown[] }) => {
        client.writes += 1;
        const { rows } = await t.store.db.executeQuery(CompiledQuery.raw(query.text, query.values));
        return { rows, rowCount: rows.length };
      },
    } satisfies QueryClient & { writes: number };
    return client;
  }

  /** What each of `count` requests sent at once was told, in the order they were sent. */
  async function sendAtOnce(
    consume: (key: string) => Promise<RateLimiterRes>,
    key: string,
    count: number,
  ) {
    return Promise.all(
      Array.from({ length: count }, () =>
        consume(key).then(
          (outcome) => ({ ok: true, remaining: outcome.remainingPoints }),
          (refused: unknown) => {
            if (!(refused instanceof RateLimiterRes)) throw refused;
            return { ok: false, remaining: refused.remainingPoints };
          },
        ),
      ),
    );
  }

  describe('many requests for one key at once', () => {
    it('admit exactly the budget, in the order sent, in fewer writes than requests', async () => {
      const client = countingClient();
      const counter = postgresCounter(client, 20);
      const told = await sendAtOnce((key) => counter.consume(key), 'token:at-once', 50);
      expect(told.map((o) => o.ok)).toEqual([
        ...Array<boolean>(20).fill(true),
        ...Array<boolean>(30).fill(false),
      ]);
      expect(told.slice(0, 20).map((o) => o.remaining)).toEqual(
        Array.from({ length: 20 }, (_, i) => 19 - i),
      );
      expect(client.writes).toBeLessThan(50);
    });

    it('share one budget with another process counting the same key', async () => {
      const [one, other] = [
        postgresCounter(countingClient(), 30),
        postgresCounter(countingClient(), 30),
      ];
      const [fromOne, fromOther] = await Promise.all([
        sendAtOnce((key) => one.consume(key), 'token:shared', 25),
        sendAtOnce((key) => other.consume(key), 'token:shared', 25),
      ]);
      const admitted = [...fromOne, ...fromOther].filter((o) => o.ok);
      expect(admitted.length).toBe(30);
      // Every admitted request was told a different remainder: each had its own place.
      expect(new Set(admitted.map((o) => o.remaining)).size).toBe(30);
    });

    it('refuse from memory once the budget is spent, without writing', async () => {
      const client = countingClient();
      const counter = postgresCounter(client, 5);
      await sendAtOnce((key) => counter.consume(key), 'token:spent', 6);
      const writes = client.writes;
      const later = await sendAtOnce((key) => counter.consume(key), 'token:spent', 10);
      expect(later.every((o) => !o.ok)).toBe(true);
      expect(client.writes).toBe(writes);
    });
  });

  it('leave what a request remembers as it is (a count changes nothing cached)', async () => {
    const ada = await person(t.store, 'counted@example.org');
    const id = await siteOf(t.store, ada);
    const counter = postgresCounter(countingClient(), 100);
    let reads = 0;
    t.store.telemetry.onQuery(() => (reads += 1));
    await t.store.withFreshCaches(async () => {
      await t.store.projects.access(id, ada.accountNumber);
      await counter.consume('token:cached');
      const before = reads;
      expect(await t.store.projects.access(id, ada.accountNumber)).not.toBeNull();
      expect(reads).toBe(before);
    });
  });
});
