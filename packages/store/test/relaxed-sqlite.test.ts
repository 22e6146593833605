import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/database.js';
import { sqliteDialect } from '../src/dialects.js';

// The SQLite connection's relaxed writes (dialects.ts, relaxed.ts), on the dialect alone.
type Rows = Kysely<{ t: { n: number } }>;

describe('SQLite relaxed writes', () => {
  const opened: Array<{ db: Kysely<Database>; dir: string }> = [];
  afterEach(async () => {
    for (const { db, dir } of opened.splice(0)) {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  async function open() {
    const dir = mkdtempSync(join(tmpdir(), 'galley-relaxed-'));
    const sqlite = sqliteDialect(join(dir, 'galley.sqlite'));
    const db = new Kysely<Database>({ dialect: sqlite.dialect });
    opened.push({ db, dir });
    await sql`create table t (n integer not null)`.execute(db);
    const untyped = db as unknown as Rows;
    const insert = (n: number) => sql`insert into t (n) values (${n})`.compile(db);
    const level = async (on: Kysely<Database> = db) =>
      (await sql<{ synchronous: number }>`pragma synchronous`.execute(on)).rows[0]?.synchronous;
    const rows = async () => (await untyped.selectFrom('t').select('n').execute()).map((r) => r.n);
    return { db, untyped, insert, level, rows, executeRelaxed: sqlite.executeRelaxed };
  }

  it('answers the rows the connection has written, counted right after the write', async () => {
    const { db, untyped, insert, executeRelaxed } = await open();
    expect((await executeRelaxed(db, insert(1))).rowsWritten).toBe(1);
    await untyped.insertInto('t').values({ n: 2 }).execute();
    expect((await executeRelaxed(db, insert(3))).rowsWritten).toBe(3);
  });

  it('commits no other statement at NORMAL: every other one runs at FULL', async () => {
    const { db, untyped, insert, level, executeRelaxed } = await open();
    expect(await level()).toBe(2);
    await executeRelaxed(db, insert(1));
    await executeRelaxed(db, insert(2));
    expect(await level()).toBe(2);
    await executeRelaxed(db, insert(3));
    expect(await db.transaction().execute((tx) => level(tx))).toBe(2);
    await executeRelaxed(db, insert(4));
    await untyped.insertInto('t').values({ n: 5 }).execute();
    expect(await level()).toBe(2);
  });

  it('waits for an open transaction instead of joining it', async () => {
    const { db, insert, rows, executeRelaxed } = await open();
    let relaxed: Promise<{ rowsWritten: number }> | undefined;
    await expect(
      db.transaction().execute(async (tx) => {
        await (tx as unknown as Rows).insertInto('t').values({ n: 1 }).execute();
        relaxed = executeRelaxed(db, insert(2));
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // The transaction's row went with it; the relaxed write ran after it, on its own (the count
    // is of rows written, the rolled-back one included).
    expect((await relaxed)?.rowsWritten).toBe(2);
    expect(await rows()).toEqual([2]);
  });
});
