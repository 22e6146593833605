import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, PostgresDialect, SqliteDialect, SqliteDriver } from 'kysely';
import type { DatabaseConnection, Dialect, Driver } from 'kysely';
import pg from 'pg';
import type { Stamp } from './stamped-cache.js';

/** Milliseconds a writer waits for another process (the CLI, a second server) to finish. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * SQLite transactions start with BEGIN IMMEDIATE: the write lock is taken up front, so two
 * processes queue on busy_timeout instead of one failing when a read turns into a write.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: () => Promise<SqliteDatabase.Database>;

  constructor(database: () => Promise<SqliteDatabase.Database>) {
    super({ database });
    this.#database = database;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.#database });
  }
}

/**
 * The SQLite dialect; `changeStamp`: the connection's `data_version`, which changes whenever
 * another connection (the CLI, a second server) commits; `writeStamp`: that and the rows this
 * connection has written (`total_changes()`). Both undefined until the connection opens.
 * `rowsWritten`: `total_changes()` alone, which takes no lock.
 * `relaxCommits(true)` lets the connection's commits skip the flush to disk (`synchronous =
 * NORMAL`), `relaxCommits(false)` puts back FULL; only with the connection held (relaxed.ts).
 * These run on the connection directly: they read or set where it stands, not data, and through
 * the query builder each cost more than the statement they run.
 */
export function sqliteDialect(file: string): {
  dialect: Dialect;
  changeStamp: () => Stamp | undefined;
  writeStamp: () => Stamp | undefined;
  rowsWritten: () => number;
  relaxCommits: (relaxed: boolean) => void;
} {
  let handle: ConnectionStatements | undefined;
  const dialect = new ImmediateSqliteDialect(() => {
    const db = new SqliteDatabase(file);
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    handle = {
      dataVersion: db.prepare('pragma data_version').pluck(),
      totalChanges: db.prepare('select total_changes()').pluck(),
      relaxed: db.prepare('pragma synchronous = NORMAL'),
      full: db.prepare('pragma synchronous = FULL'),
    };
    cachePreparedStatements(db);
    return Promise.resolve(db);
  });
  const changeStamp = (): Stamp | undefined => handle && [handle.dataVersion.get() as number];
  const writeStamp = (): Stamp | undefined =>
    handle && [handle.dataVersion.get() as number, handle.totalChanges.get() as number];
  const opened = (): ConnectionStatements => {
    if (!handle) throw new Error('The SQLite connection is not open.');
    return handle;
  };
  const rowsWritten = (): number => opened().totalChanges.get() as number;
  const relaxCommits = (relaxed: boolean): void => {
    const statements = opened();
    (relaxed ? statements.relaxed : statements.full).run();
  };
  return { dialect, changeStamp, writeStamp, rowsWritten, relaxCommits };
}

interface ConnectionStatements {
  dataVersion: SqliteDatabase.Statement;
  totalChanges: SqliteDatabase.Statement;
  relaxed: SqliteDatabase.Statement;
  full: SqliteDatabase.Statement;
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely prepares every query anew; compiling SQL was a visible share of a cheap request. Queries
 * of one shape compile to the same text, so prepared statements are kept by text (bounded, least
 * recently used dropped). Safe because Kysely runs one query at a time on the one connection.
 */
function cachePreparedStatements(db: SqliteDatabase.Database): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, SqliteDatabase.Statement>();
  db.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, statement);
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

export function postgresDialect(
  url: string,
  maxConnections = 10,
): { dialect: Dialect; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections, types });
  // An idle connection that the server ends (a restart, an administrator) is reported here; the
  // pool drops it and connects anew for the next query. Unhandled, it would end the process.
  pool.on('error', () => undefined);
  return { dialect: new PostgresDialect({ pool }), pool };
}
