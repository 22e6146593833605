import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, PostgresDialect, SqliteDialect, SqliteDriver } from 'kysely';
import type {
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryResult,
  SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import type { Stamp } from './stamped-cache.js';

/** Milliseconds a writer waits for another process (the CLI, a second server) to finish. */
const BUSY_TIMEOUT_MS = 10_000;
/** The longest pause between two tries of a write that found the database locked. */
const BUSY_RETRY_MAX_MS = 50;

/** Milliseconds to connect to PostgreSQL, or to wait for a free connection of the pool. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * SQLite transactions start with BEGIN IMMEDIATE: the write lock is taken up front, so two
 * processes queue instead of one failing when a read turns into a write. The wait for a lock
 * another process holds is spent here, between tries, not in SQLite's busy handler: that one
 * sleeps on the thread, so the whole server (health checks, reads from memory, the screen)
 * stood still for as long as another process held the lock.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  #patient: PatientConnection | undefined;
  readonly #hooks: StatementHooks;

  constructor(config: SqliteDialectConfig, hooks: StatementHooks) {
    super(config);
    this.#hooks = hooks;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#patient ??= new PatientConnection(connection, this.#hooks);
    return this.#patient;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite ends a transaction itself on some failures (a full disk: SQLITE_FULL); the ROLLBACK
   * that follows then fails, and its error would stand in for the failure that matters.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!/no transaction is active/.test((error as Error).message)) throw error;
    }
  }
}

const isBusy = (error: unknown) => (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** What runs around every statement on the one connection (see `sqliteDialect`). */
interface StatementHooks {
  /** Just before the statement runs (again before each try of a write that found a lock). */
  before(query: CompiledQuery): void;
  /** Just after it ran, before anything else can run on the connection. */
  after(query: CompiledQuery): void;
}

/**
 * A statement that starts a write (a transaction's BEGIN IMMEDIATE, a write on its own) and finds
 * the database locked by another process is tried again after a pause, for BUSY_TIMEOUT_MS, with
 * the event loop free meanwhile. Inside a transaction this connection holds the lock already.
 * `hooks` run around every statement (see `sqliteDialect`).
 */
class PatientConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  readonly #hooks: StatementHooks;

  constructor(inner: DatabaseConnection, hooks: StatementHooks) {
    this.#inner = inner;
    this.#hooks = hooks;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // better-sqlite3 runs the statement at once: Kysely's connection throws a failure here, or
    // answers a settled promise, which is passed on as it is (no await on every query).
    try {
      this.#hooks.before(query);
      const result = this.#inner.executeQuery<R>(query);
      this.#hooks.after(query);
      return result;
    } catch (error) {
      if (!isBusy(error)) return Promise.reject(asError(error));
      return this.#again(query, Date.now() + BUSY_TIMEOUT_MS);
    }
  }

  async #again<R>(query: CompiledQuery, deadline: number): Promise<QueryResult<R>> {
    for (let pause = 1; ; pause = Math.min(pause * 2, BUSY_RETRY_MAX_MS)) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      try {
        this.#hooks.before(query);
        const result = await this.#inner.executeQuery<R>(query);
        this.#hooks.after(query);
        return result;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.#hooks.before(query);
    return this.#inner.streamQuery<R>(query, chunkSize);
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: () => Promise<SqliteDatabase.Database>;
  readonly #hooks: StatementHooks;

  constructor(database: () => Promise<SqliteDatabase.Database>, hooks: StatementHooks) {
    super({ database });
    this.#database = database;
    this.#hooks = hooks;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.#database }, this.#hooks);
  }
}

/**
 * The SQLite dialect; `changeStamp`: the connection's `data_version`, which changes whenever
 * another connection (the CLI, a second server) commits; `writeStamp`: that and the rows this
 * connection has written (`total_changes()`). Both undefined until the connection opens.
 * The stamps run on the connection directly: they read where it stands, not data, and through
 * the query builder each cost more than the statement they read.
 *
 * `executeRelaxed(db, query)` runs one statement that commits without the flush to disk
 * (`synchronous = NORMAL`, relaxed.ts) and answers its rows and `total_changes()` as it stood
 * right after it.
 * The level is set by the connection itself, before each statement: NORMAL for a relaxed one,
 * FULL for any other, so no other statement ever commits at NORMAL, and the statement and its
 * count run back to back with nothing between them, without holding the connection across
 * awaits. Each level is set only when it changes (PRAGMA synchronous is compiled anew on every
 * run, so setting it around each write cost more than the insert): a chain of relaxed writes
 * (a draft's operations) sets NORMAL once.
 */
export function sqliteDialect(file: string): {
  dialect: Dialect;
  changeStamp: () => Stamp | undefined;
  writeStamp: () => Stamp | undefined;
  executeRelaxed: RelaxedExecutor;
} {
  let handle: ConnectionStatements | undefined;
  const opened = (): ConnectionStatements => {
    if (!handle) throw new Error('The SQLite connection is not open.');
    return handle;
  };
  /** The connection is at NORMAL. */
  let atNormal = false;
  /** Relaxed statements, to `total_changes()` after each ran (NaN until then). */
  const relaxed = new WeakMap<CompiledQuery, number>();
  const hooks: StatementHooks = {
    before: (query) => {
      const relax = relaxed.has(query);
      if (relax === atNormal) return;
      (relax ? opened().relaxed : opened().full).run();
      atNormal = relax;
    },
    after: (query) => {
      if (relaxed.has(query)) relaxed.set(query, opened().totalChanges.get() as number);
    },
  };
  const dialect = new ImmediateSqliteDialect(() => {
    const db = new SqliteDatabase(file);
    // Opening may wait in SQLite itself (nothing is served yet); afterwards PatientConnection
    // waits for a lock without holding the thread.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 0');
    handle = {
      dataVersion: db.prepare('pragma data_version').pluck(),
      totalChanges: db.prepare('select total_changes()').pluck(),
      relaxed: db.prepare('pragma synchronous = NORMAL'),
      full: db.prepare('pragma synchronous = FULL'),
    };
    cachePreparedStatements(db);
    return Promise.resolve(db);
  }, hooks);
  const changeStamp = (): Stamp | undefined => handle && [handle.dataVersion.get() as number];
  const writeStamp = (): Stamp | undefined =>
    handle && [handle.dataVersion.get() as number, handle.totalChanges.get() as number];
  const executeRelaxed: RelaxedExecutor = async <R>(db: Kysely<Database>, query: CompiledQuery) => {
    relaxed.set(query, Number.NaN);
    const result = await db.executeQuery<R>(query);
    return { rows: result.rows, rowsWritten: relaxed.get(query)! };
  };
  return { dialect, changeStamp, writeStamp, executeRelaxed };
}

/**
 * Runs one write statement on its own, committed without the flush to disk (relaxed.ts); answers
 * the rows it returned and `total_changes()` read right after it (the rows this connection has
 * written so far).
 */
export type RelaxedExecutor = <R>(
  db: Kysely<Database>,
  query: CompiledQuery,
) => Promise<{ rows: R[]; rowsWritten: number }>;

interface ConnectionStatements {
  dataVersion: SqliteDatabase.Statement;
  totalChanges: SqliteDatabase.Statement;
  relaxed: SqliteDatabase.Statement;
  full: SqliteDatabase.Statement;
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely prepares every query anew; compiling SQL was a visible share of a cheap request. Queries
 * of one shape compile to the same text, so prepared statements are kept by text; past the bound
 * the first prepared goes (queries come in a few hundred shapes, so it is seldom reached). A hit
 * leaves the Map as it is: moving the key to the end (delete, then set) on every query left a
 * deleted entry in its hash chain each time, which V8 walks until the table is rebuilt. Safe
 * because Kysely runs one query at a time on the one connection.
 */
function cachePreparedStatements(db: SqliteDatabase.Database): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, SqliteDatabase.Statement>();
  db.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof db.prepare;
}

// int8 (count(*), sums) as numbers: values here stay far below 2^53.
const INT8_OID = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID
      ? Number
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The PostgreSQL dialect. `queryTimeoutMs`: how long a query may go unanswered before it fails
 * (503 for the request), for a server that stopped answering without closing its connections;
 * none for migrations, which may rightly run long on a big database.
 */
export function postgresDialect(
  url: string,
  options: { maxConnections?: number; queryTimeoutMs?: number } = {},
): PostgresDialect & { pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    types,
    // A server that accepts connections but never answers fails the request (503) instead of
    // holding it, and a start against it, for ever.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
    keepAlive: true,
  });
  // A connection the server ends (a restart, a failover, an administrator) reports an error
  // event; unhandled, it would end the process. An idle one is reported on the pool, which drops
  // it; one in use also fails its query, so the request using it answers 503, and the pool drops
  // it when it comes back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return Object.assign(new PostgresDialect({ pool }), { pool });
}
