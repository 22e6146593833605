// The caches on PostgreSQL (fresh-reads.ts): inside `withFreshCaches` a request reads tokens and
// project access from memory, confirmed by one read of the database's change count, which every
// write to a counted table moves (migration 011) wherever it was made.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { UNCOUNTED_TABLES } from '../src/migrations/011_change_counts.js';
import { person, siteOf } from './projects-fixtures.js';
import { describePostgres } from './stores.js';

/** The statements `store` runs while `work` runs. */
async function statementsOf(store: Store, work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  store.telemetry.onQuery(() => (count += 1));
  try {
    await work();
  } finally {
    store.telemetry.onQuery(() => undefined);
  }
  return count;
}

describePostgres('fresh reads', (t) => {
  async function projectWithToken(store: Store) {
    const ada = await person(store, 'ada@example.org');
    const bob = await person(store, 'bob@example.org');
    const id = await siteOf(store, ada);
    await store.projectMembers.put(id, bob.accountNumber, 'editor');
    const { token, record } = await store.tokens.issue({ accountNumber: bob.accountNumber });
    /** What a request of bob's reads first: his token, then his role in the project. */
    const request = () =>
      store.withFreshCaches(async () => ({
        token: (await store.tokens.authenticate(token)).ok,
        role: (await store.projects.access(id, bob.accountNumber))?.role ?? null,
      }));
    return { id, bob, record, request };
  }

  it('answers a request from memory after one read of the change count', async () => {
    const { store } = await t.fresh();
    const { request } = await projectWithToken(store);
    // The first notes the token's use (a write, once a minute), which the second sees.
    for (let i = 0; i < 2; i++) expect(await request()).toEqual({ token: true, role: 'editor' });
    let answer: unknown;
    expect(await statementsOf(store, async () => (answer = await request()))).toBe(1);
    expect(answer).toEqual({ token: true, role: 'editor' });
    // Requests that arrive together share the reads of the count (one under way, one after it).
    expect(
      await statementsOf(store, () => Promise.all(Array.from({ length: 8 }, request))),
    ).toBeLessThanOrEqual(2);
  });

  it('remembers nothing outside withFreshCaches, nor a second after its check', async () => {
    const { store } = await t.fresh();
    const { id, bob } = await projectWithToken(store);
    await store.withFreshCaches(() => store.projects.access(id, bob.accountNumber));
    const read = () => store.projects.access(id, bob.accountNumber);
    expect(await statementsOf(store, read)).toBe(1);
    expect(await statementsOf(store, read)).toBe(1);
    // Nor in an answer that stays open (an event stream), a second after its check.
    await store.withFreshCaches(async () => {
      expect(await statementsOf(store, read)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await statementsOf(store, read)).toBe(1);
    });
  });

  it('sees what another process wrote at the next request', async () => {
    const { store, options } = await t.fresh();
    const { id, bob, record, request } = await projectWithToken(store);
    expect(await request()).toEqual({ token: true, role: 'editor' });
    const other = await openStore(options);
    try {
      await other.projectMembers.put(id, bob.accountNumber, 'viewer');
      expect(await request()).toEqual({ token: true, role: 'viewer' });
      await other.projectMembers.remove(id, bob.accountNumber);
      expect(await request()).toEqual({ token: true, role: null });
      await other.tokens.revoke({ accountNumber: bob.accountNumber, idOrPrefix: record.id });
      expect(await request()).toEqual({ token: false, role: null });
    } finally {
      await other.close();
    }
  });

  it('sees its own write inside the same request', async () => {
    const { store } = await t.fresh();
    const { id, bob, request } = await projectWithToken(store);
    expect(await request()).toEqual({ token: true, role: 'editor' });
    await store.withFreshCaches(async () => {
      const roleOf = async () => (await store.projects.access(id, bob.accountNumber))?.role;
      expect(await roleOf()).toBe('editor');
      await store.projectMembers.put(id, bob.accountNumber, 'viewer');
      expect(await roleOf()).toBe('viewer');
    });
  });

  it('counts the writes of every table but the per-request counters', async () => {
    const { rows } = await sql<{ name: string; counted: boolean }>`
      select c.relname as name, exists (
        select from pg_trigger g where g.tgrelid = c.oid and g.tgname = c.relname || '_counts_changes'
      ) as counted
      from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where c.relkind = 'r' and s.nspname = current_schema()`.execute(t.store.db);
    const uncounted = rows.filter((row) => !row.counted).map((row) => row.name);
    expect(uncounted.sort()).toEqual([...UNCOUNTED_TABLES].sort());
  });

  it('keeps the change count when it folds the counts of ended connections', async () => {
    const { store, options } = await t.fresh();
    const changes = async () => {
      const { rows } = await sql<{ n: number; rows: number }>`
        select sum(n)::bigint as n, count(*)::bigint as rows from change_counts`.execute(store.db);
      return rows[0]!;
    };
    const backends = async () => {
      const { rows } = await sql<{ backend: number }>`
        select backend from change_counts where backend <> 0`.execute(store.db);
      return rows.map((row) => row.backend);
    };
    const mine = await backends();
    const other = await openStore(options);
    await person(other, 'carol@example.org');
    const others = (await backends()).filter((backend) => !mine.includes(backend));
    expect(others.length).toBeGreaterThan(0);
    await other.close();
    // Its connections end on the server a moment after they close.
    for (let i = 0; i < 100; i++) {
      const { rows } = await sql<{ alive: number }>`
        select count(*)::bigint as alive from pg_stat_activity
        where pid in (${sql.join(others)})`.execute(store.db);
      if (rows[0]!.alive === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const before = await changes();
    const third = await openStore(options);
    await third.close();
    const after = await changes();
    expect(after.n).toBe(before.n);
    expect(after.rows).toBeLessThan(before.rows);
  });
});
