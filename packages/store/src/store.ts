import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import type { LogEvent } from 'kysely';
import type { ByteStore } from './bytes/byte-store.js';
import { DiskByteStore } from './bytes/disk-byte-store.js';
import type { ObjectBytesOptions } from './bytes/object-bytes-options.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { Database } from './database.js';
import type { Stamp } from './stamped-cache.js';
import type { RelaxedExecutor } from './dialects.js';
import { postgresDialect, sqliteDialect } from './dialects.js';
import { FreshReads, compactChangeCounts } from './fresh-reads.js';
import { migrateToLatest } from './migrations/migrate.js';
import type { Caches, Repositories } from './repositories.js';
import { createCaches, createRepositories } from './repositories.js';
import type { RepoScope } from './scope.js';

export type StoreOptions = (
  | { kind: 'sqlite'; dataDir: string; clock?: Clock }
  | {
      kind: 'postgres';
      url: string;
      /** The byte folder, unless `objectBytes` puts the bytes in a bucket (then: their staging). */
      bytesDir: string;
      clock?: Clock;
      maxConnections?: number;
      /** How long a query may wait for the server's answer before it fails; 30 s by default. */
      queryTimeoutMs?: number;
    }
) & {
  /** Bytes in an S3-compatible bucket instead of a folder: what several hosts can share. */
  objectBytes?: ObjectBytesOptions;
};

/** A scope with every domain's repository: the Store itself, or an open transaction. */
export type StoreScope = Omit<RepoScope, 'transaction'> &
  Repositories & {
    /**
     * Runs `fn` in one transaction, committed when it resolves and rolled back when it throws.
     * Inside `fn`, use only `tx` (its repositories and `tx.db`): on SQLite the one connection
     * belongs to the transaction, so a query through the outer store waits forever. Keep slow
     * I/O (byte uploads) outside: on SQLite every other query waits for the transaction.
     */
    transaction<T>(fn: (tx: StoreScope) => Promise<T>): Promise<T>;
  };

/** What the store tells about its own work, for the service's metrics. */
export interface StoreTelemetry {
  /** PostgreSQL's connection pool as it is now; null on SQLite (one connection). */
  pool(): { total: number; idle: number; waiting: number } | null;
  /** Calls `listener` after every query with its time and whether it failed (one listener). */
  onQuery(listener: (event: { seconds: number; failed: boolean }) => void): void;
}

export type Store = StoreScope & {
  readonly options: StoreOptions;
  readonly telemetry: StoreTelemetry;
  /** Closes the database connections and the object store's. */
  close(): Promise<void>;
  /** Resolves when the database answers and the byte folder can be written; else rejects. */
  ready(): Promise<void>;
  /**
   * Runs `fn` (a request's work) where the store's caches answer what the database holds now.
   * SQLite: at once (its stamps are read with each lookup). PostgreSQL: after one read of the
   * database's change count, shared by the calls that arrive meanwhile (fresh-reads.ts); outside
   * it nothing is remembered there.
   */
  withFreshCaches<T>(fn: () => T | PromiseLike<T>): Promise<T>;
};

/** The SQLite file inside a data folder. */
export function sqliteFileOf(dataDir: string): string {
  return join(dataDir, 'galley.sqlite');
}

/** The byte store folder inside a data folder. */
export function bytesDirOf(dataDir: string): string {
  return join(dataDir, 'bytes');
}

/** How long a query may wait on PostgreSQL for an answer (then the request answers 503). */
const POSTGRES_QUERY_TIMEOUT_MS = 30_000;

/** A byte store as the store runs it: prepared on opening, asked on readiness, closed. */
type ManagedBytes = ByteStore & {
  /** Makes what it needs and removes what writes cut off by a crash left behind. */
  init(): Promise<void>;
  /** Resolves when new bytes can be written (the folder is writable, the bucket answers). */
  writable(): Promise<void>;
  close?(): void;
};

/**
 * The bytes `options` name: a folder (`dir`) or a bucket, whose uploads wait in `dir/staging`
 * until they are whole and hashed.
 */
async function bytesOf(options: StoreOptions, dir: string): Promise<ManagedBytes> {
  if (!options.objectBytes) return new DiskByteStore(dir);
  // Loaded only where used: the AWS SDK is large, and most stores keep bytes on disk.
  const { S3ByteStore } = await import('./bytes/s3-byte-store.js');
  return new S3ByteStore({ ...options.objectBytes, stagingDir: join(dir, 'staging') });
}

/** Prepares the byte store and migrates `db`; closes `db` if either fails, or after unless `keepOpen`. */
async function prepare(
  bytes: ManagedBytes,
  db: Kysely<Database>,
  options: { keepOpen: boolean },
): Promise<void> {
  try {
    await bytes.init();
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  if (!options.keepOpen) await db.destroy();
}

/** Opens (and creates, and migrates) a store. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const clock = options.clock ?? systemClock;
  let bytes: ManagedBytes;
  let db: Kysely<Database>;
  let changeStamp: () => Stamp | undefined;
  let writeStamp: () => Stamp | undefined;
  let fresh: FreshReads | undefined;
  let executeRelaxed: RelaxedExecutor | undefined;
  let pool: (() => ReturnType<StoreTelemetry['pool']>) | undefined;
  let queryListener: Parameters<StoreTelemetry['onQuery']>[0] | undefined;
  const log = (event: LogEvent) => {
    fresh?.noteStatement(event.query.sql);
    queryListener?.({ seconds: event.queryDurationMillis / 1000, failed: event.level === 'error' });
  };
  if (options.kind === 'sqlite') {
    await mkdir(options.dataDir, { recursive: true });
    bytes = await bytesOf(options, bytesDirOf(options.dataDir));
    const sqlite = sqliteDialect(sqliteFileOf(options.dataDir));
    db = new Kysely<Database>({ dialect: sqlite.dialect, log });
    ({ changeStamp, writeStamp, executeRelaxed } = sqlite);
    await prepare(bytes, db, { keepOpen: true });
  } else {
    bytes = await bytesOf(options, options.bytesDir);
    // Migrations on a connection of their own, free of the query timeout requests have.
    const migrating = new Kysely<Database>({ dialect: postgresDialect(options.url) });
    await prepare(bytes, migrating, { keepOpen: false });
    const dialect = postgresDialect(options.url, {
      maxConnections: options.maxConnections,
      queryTimeoutMs: options.queryTimeoutMs ?? POSTGRES_QUERY_TIMEOUT_MS,
    });
    db = new Kysely<Database>({ dialect, log });
    // Other processes write without telling: the caches' stamp is the database's change count,
    // read once per batch of requests (fresh-reads.ts).
    fresh = new FreshReads(db);
    changeStamp = writeStamp = fresh.stamp;
    await compactChangeCounts(db);
    pool = () => ({
      total: dialect.pool.totalCount,
      idle: dialect.pool.idleCount,
      waiting: dialect.pool.waitingCount,
    });
  }
  const telemetry: StoreTelemetry = {
    pool: () => pool?.() ?? null,
    onQuery: (listener) => {
      queryListener = listener;
    },
  };
  const caches = createCaches({ change: changeStamp, write: writeStamp });
  const scope = makeScope({ kind: options.kind, db, clock, bytes, executeRelaxed }, caches);
  const ready = async () => {
    await sql`select 1`.execute(db);
    await bytes.writable();
  };
  const close = async () => {
    bytes.close?.();
    await db.destroy();
  };
  const withFreshCaches = async <T>(fn: () => T | PromiseLike<T>): Promise<T> =>
    fresh ? fresh.run(fn) : fn();
  return Object.assign(scope, { options, telemetry, close, ready, withFreshCaches });
}

function makeScope(base: Omit<RepoScope, 'transaction'>, caches: Caches): StoreScope {
  const transaction = <T>(fn: (tx: StoreScope) => Promise<T>): Promise<T> => {
    if (base.db.isTransaction) return fn(full);
    return base.db.transaction().execute((trx) => fn(makeScope({ ...base, db: trx }, caches)));
  };
  const scope: RepoScope = { ...base, transaction };
  const full: StoreScope = { ...scope, ...createRepositories(scope, caches), transaction };
  return full;
}
