// Storage that fails: which errors say so (storageFailureOf, which the server answers 503 or 507),
// and a PostgreSQL connection ended by the server while in use, which must fail only its own work.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore, sqliteFileOf, storageFailureOf } from '@galley/store';
import { describePostgres } from './stores.js';

/** The error `work` throws. */
async function thrownBy(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('storageFailureOf', () => {
  it('reads a PostgreSQL server out of reach as unavailable', async () => {
    // A port nothing listens on: the pool's connection is refused.
    const client = new pg.Client({ connectionString: 'postgres://galley@127.0.0.1:1/none' });
    expect(storageFailureOf(await thrownBy(() => client.connect()))).toBe('unavailable');
  });

  it('reads SQLite busy past its timeout, or a read-only file, as unavailable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'galley-outage-'));
    try {
      const file = join(dir, 'db.sqlite');
      const holder = new Database(file);
      holder.exec('create table t (x integer)');
      holder.exec('begin immediate');
      const waiter = new Database(file, { timeout: 10 });
      expect(storageFailureOf(await thrownBy(() => waiter.exec('insert into t values (1)')))).toBe(
        'unavailable',
      );
      holder.exec('rollback');
      const reader = new Database(file, { readonly: true });
      expect(storageFailureOf(await thrownBy(() => reader.exec('insert into t values (1)')))).toBe(
        'unavailable',
      );
      for (const db of [holder, waiter, reader]) db.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads no room as full, also when wrapped as the cause of another error', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL', '53100']) {
      const error = Object.assign(new Error('no room'), { code });
      expect([code, storageFailureOf(new Error('write failed', { cause: error }))]).toEqual([
        code,
        'full',
      ]);
    }
  });

  it('reads anything else as no storage failure', () => {
    for (const error of [
      new Error('bug'),
      Object.assign(new Error('unique'), { code: '23505' }),
      Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }),
      Object.assign(new Error('missing'), { code: 'ENOENT' }),
      'a string',
      null,
    ]) {
      expect(storageFailureOf(error)).toBeNull();
    }
  });
});

describePostgres('a connection the server ends while it is in use', (t) => {
  it('fails only the transaction on it; the process goes on and the store connects anew', async () => {
    const { store, options } = await t.fresh();
    if (options.kind !== 'postgres') throw new Error('a PostgreSQL target');
    const database = new URL(options.url).pathname.slice(1);
    const failure = await thrownBy(() =>
      store.transaction(async (tx) => {
        await sql`select 1`.execute(tx.db);
        // Ended by the server while the transaction holds it: pg reports an error event on the
        // connection, which would end the process if nothing listened to it.
        await sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = ${database}`.execute(t.store.db);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql`select 1`.execute(tx.db);
      }),
    );
    expect(storageFailureOf(failure)).toBe('unavailable');
    await expect(store.ready()).resolves.toBeUndefined();
  });
});

describe('a PostgreSQL address that accepts connections and never answers', () => {
  it('fails opening the store after the connect timeout instead of waiting for ever', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const dir = await mkdtemp(join(tmpdir(), 'galley-silent-'));
    try {
      const started = Date.now();
      const failure = await thrownBy(() =>
        openStore({
          kind: 'postgres',
          url: `postgres://galley@127.0.0.1:${port}/none`,
          bytesDir: join(dir, 'bytes'),
        }),
      );
      expect(storageFailureOf(failure)).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('a SQLite database another process keeps locked', () => {
  it('waits for the lock with the event loop free, then writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'galley-locked-'));
    const store = await openStore({ kind: 'sqlite', dataDir: dir });
    const other = new Database(sqliteFileOf(dir));
    try {
      other.exec('begin immediate');
      let settled = false;
      const created = store.accounts.create({ email: 'w@example.org', name: 'W', password: 'pw' });
      void created.finally(() => (settled = true));
      // Timers run while the write waits: the thread is not held by SQLite's busy handler.
      for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(settled).toBe(false);
      other.exec('rollback');
      expect(await created).toMatchObject({ ok: true });
    } finally {
      other.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a SQLite database that is full', () => {
  it('fails the transaction with the full disk as its reason, then writes again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'galley-full-'));
    const store = await openStore({ kind: 'sqlite', dataDir: dir });
    try {
      // The database may not grow (as on a full disk): SQLite ends the transaction itself.
      const { rows } = await sql<{
        pages: number;
      }>`select page_count as pages from pragma_page_count()`.execute(store.db);
      await sql.raw(`pragma max_page_count = ${rows[0]!.pages}`).execute(store.db);
      const failure = await thrownBy(() =>
        store.transaction(async (tx) => {
          for (let n = 0; n < 200; n++) {
            await tx.accounts.create({
              email: `f${n}@example.org`,
              name: 'x'.repeat(2000),
              password: 'pw',
            });
          }
        }),
      );
      expect(storageFailureOf(failure)).toBe('full');
      await sql.raw('pragma max_page_count = 1073741823').execute(store.db);
      expect(
        await store.accounts.create({ email: 'room@example.org', name: 'R', password: 'pw' }),
      ).toMatchObject({ ok: true });
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
