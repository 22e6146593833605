// A PostgreSQL store that cannot be opened says why: the driver's words, not "migration unknown".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { StoreError, openStore, sqliteFileOf } from '@galley/store';
import { postgresSkipReason } from './stores.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'galley-open-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The StoreError `openStore` fails with for `url`. */
async function openFailure(url: string): Promise<StoreError> {
  const error: unknown = await openStore({
    kind: 'postgres',
    url,
    bytesDir: join(dir, 'bytes'),
    maxConnections: 1,
  }).then(
    async (store) => {
      await store.close();
      return new Error(`opened ${url}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

if (postgresSkipReason)
  console.warn(`skipped: a PostgreSQL database that does not exist: ${postgresSkipReason}`);

describe('opening a PostgreSQL store that cannot be reached', () => {
  it('names the refused connection', async () => {
    const error = await openFailure('postgres://galley@127.0.0.1:1/galley');
    expect(error.code).toBe('migration_failed');
    expect(error.message).toBe('migrating the database failed: connect ECONNREFUSED 127.0.0.1:1');
  });

  it.skipIf(!!postgresSkipReason)('names the database that does not exist', async () => {
    const url = new URL(process.env.GALLEY_TEST_PG_URL!);
    url.pathname = '/galley_missing_database';
    const error = await openFailure(url.toString());
    expect(error.message).toBe(
      'migrating the database failed: database "galley_missing_database" does not exist',
    );
  });
});

describe('opening a store that a newer version migrated further', () => {
  it('says so, and changes nothing', async () => {
    const dataDir = join(dir, 'newer');
    await (await openStore({ kind: 'sqlite', dataDir })).close();
    const db = new Database(sqliteFileOf(dataDir));
    db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(
      '999_from_a_newer_galley',
      '2099-01-01T00:00:00.000Z',
    );
    db.close();
    const error: unknown = await openStore({ kind: 'sqlite', dataDir }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toBe(
      'migrating the database failed: it was migrated by a newer Galley (migration 999_from_a_newer_galley is unknown to this version); run that version or a later one',
    );
  });
});
