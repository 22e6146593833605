// One test suite, every store kind: `describeStores` runs its body against SQLite in a temporary
// folder and, when GALLEY_TEST_PG_URL is set, against a fresh PostgreSQL database per file.
// With GALLEY_TEST_SHAPE=multi-host (the service on many hosts) it runs on PostgreSQL alone, with
// the bytes in a fresh bucket of the S3 server GALLEY_TEST_S3_URL names, and `openTestStore`
// opens that shape instead of SQLite for the HTTP suite.
// Other packages import it by relative path (it is test support, not part of the package API).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { TestClock, bytesDirOf, openStore } from '@galley/store';
import type { Store, StoreKind, StoreOptions } from '@galley/store';
import { bucketKeys, freshBucket, s3SkipReason } from './s3.js';

export interface StoreTarget {
  readonly kind: StoreKind;
  /** The store opened for this file (fresh and empty when the first test starts). */
  readonly store: Store;
  /** The clock the store and anything built on it must use; starts 2030-01-01. */
  readonly clock: TestClock;
  /** The options `store` was opened with: open them again to simulate a restart. */
  readonly options: StoreOptions;
  /** Opens another, empty store of the same kind (cleaned up after the file). */
  fresh(): Promise<{ store: Store; options: StoreOptions }>;
}

const pgUrl = process.env.GALLEY_TEST_PG_URL;
export const postgresSkipReason = pgUrl
  ? null
  : 'GALLEY_TEST_PG_URL is not set (bash scripts/start-test-postgres.sh prints one)';

/** The service on many hosts: PostgreSQL and a bucket (GALLEY_TEST_SHAPE=multi-host). */
export const multiHost = process.env.GALLEY_TEST_SHAPE === 'multi-host';
/** Why the multi-host shape cannot run here, or null. */
export const multiHostSkipReason = multiHost ? (postgresSkipReason ?? s3SkipReason) : null;

let warned = false;

/**
 * Describes `title` once per store kind (in the multi-host shape: PostgreSQL with a bucket).
 * `body` receives a target whose fields are ready inside tests and hooks (not while the describe
 * body itself runs).
 */
export function describeStores(title: string, body: (target: StoreTarget) => void): void {
  for (const kind of multiHost ? (['postgres'] as const) : (['sqlite', 'postgres'] as const)) {
    const skip = kind === 'postgres' ? (multiHostSkipReason ?? postgresSkipReason) : null;
    if (skip && !warned) {
      warned = true;
      console.warn(`skipped: PostgreSQL store tests: ${skip}`);
    }
    describe.skipIf(!!skip)(`${title} [${kind}]`, () => {
      body(createTarget(kind));
    });
  }
}

/** Describes `title` on PostgreSQL alone: what only a database server can do (drop connections). */
export function describePostgres(title: string, body: (target: StoreTarget) => void): void {
  if (postgresSkipReason) console.warn(`skipped: ${title}: ${postgresSkipReason}`);
  describe.skipIf(!!postgresSkipReason)(`${title} [postgres]`, () => {
    body(createTarget('postgres'));
  });
}

function createTarget(kind: StoreKind): StoreTarget {
  const clock = new TestClock();
  const cleanups: Array<() => Promise<void>> = [];
  let main: { store: Store; options: StoreOptions } | undefined;
  const ready = () => {
    if (!main) throw new Error('the store is opened before the first test; use it inside tests');
    return main;
  };
  const fresh = async () => {
    const { options, cleanup } = await newStoreOptions(kind, clock);
    const store = await openStore(options);
    cleanups.push(async () => {
      await store.close();
      await cleanup();
    });
    return { store, options };
  };
  beforeAll(async () => {
    main = await fresh();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return {
    kind,
    clock,
    fresh,
    get store() {
      return ready().store;
    },
    get options() {
      return ready().options;
    },
  };
}

async function newStoreOptions(
  kind: StoreKind,
  clock: TestClock,
): Promise<{ options: StoreOptions; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'galley-store-'));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    return { options: { kind, dataDir: dir, clock }, cleanup: removeDir };
  }
  const database = await freshPostgresDatabase();
  const bucket = multiHost ? await freshBucket() : undefined;
  return {
    options: {
      kind,
      url: database.url,
      bytesDir: join(dir, 'bytes'),
      clock,
      maxConnections: 4,
      ...(bucket ? { objectBytes: bucket.options } : {}),
    },
    cleanup: async () => {
      await database.drop();
      await bucket?.remove();
      await removeDir();
    },
  };
}

/** A new, empty database on the test PostgreSQL server; `drop` waits for its connections to go. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const database = `galley_t_${Math.random().toString(36).slice(2, 12)}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(pgUrl!);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      await connectionsGone(database);
      await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

/**
 * A store of the shape the HTTP suite runs in: SQLite in `dataDir`, or in the multi-host shape a
 * fresh PostgreSQL database with a fresh bucket. `cleanup` closes it and removes what it made.
 */
export async function openTestStore(
  dataDir: string,
  clock: TestClock,
): Promise<{ store: Store; cleanup: () => Promise<void> }> {
  if (!multiHost) {
    const store = await openStore({ kind: 'sqlite', dataDir, clock });
    return { store, cleanup: () => store.close() };
  }
  if (multiHostSkipReason) throw new Error(multiHostSkipReason);
  const { options, cleanup } = await newStoreOptions('postgres', clock);
  const store = await openStore(options);
  return {
    store,
    cleanup: async () => {
      await store.close();
      await cleanup();
    },
  };
}

/**
 * The name of every stored content and temporary upload of `store`: the files under its byte
 * folder, or the keys in its bucket.
 */
export async function storedByteNames(store: Store): Promise<string[]> {
  const { options } = store;
  if (options.objectBytes) return bucketKeys(options.objectBytes);
  const dir = options.kind === 'sqlite' ? bytesDirOf(options.dataDir) : options.bytesDir;
  const files = await readdir(dir, { recursive: true, withFileTypes: true });
  return files
    .filter((f) => f.isFile())
    .map((f) => join(f.parentPath, f.name))
    .sort();
}

/**
 * PostgreSQL: resolves once a connection to `store`'s database waits for a lock that another
 * transaction holds (a row locked for update), so a test can go on knowing the wait has begun.
 */
export async function lockWaitBegun(store: Store): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(store.db);
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits (a few seconds at most) until pools closed by the test have really disconnected. */
async function connectionsGone(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    for (let tries = 0; tries < 50; tries++) {
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [database],
      );
      if ((rows[0]?.n ?? 0) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
