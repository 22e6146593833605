// Typed store failures with stable codes, and the driver-neutral test for unique violations that
// idempotency and race handling rely on (a unique constraint, never a check-then-insert).
export type StoreErrorCode = 'unknown_account' | 'migration_failed' | 'invalid_options';

export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}

/**
 * True when `error` is a unique-constraint violation from SQLite or PostgreSQL. With `hint`, the
 * violated constraint (PostgreSQL) or the column list in the message (SQLite) must mention it.
 */
export function isUniqueViolation(error: unknown, hint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown; detail?: unknown };
  const sqlite = e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  const postgres = e.code === '23505';
  if (!sqlite && !postgres) return false;
  if (hint === undefined) return true;
  const where = [e.constraint, e.message, e.detail].filter((v) => typeof v === 'string').join(' ');
  return where.includes(hint);
}

/**
 * True when `error` is a foreign-key violation from SQLite or PostgreSQL: a row written for
 * something another request deleted meanwhile (a draft's event for a project just deleted).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** How storage failed: no room left, or not reachable or writable for now. */
export type StorageFailure = 'full' | 'unavailable';

/**
 * How storage failed, when `error` (or an error it wraps as `cause`) says the storage itself did:
 * `full` when there is no room (a full disk or quota, a file past its size limit, PostgreSQL's
 * `disk_full`); `unavailable` when it cannot be reached or written at all for now (PostgreSQL down,
 * restarting, refusing connections or dropping them; a read-only or failing disk; a SQLite file
 * another process keeps locked past the busy timeout). Null for anything else, a fault in the
 * request or in this code included.
 */
export function storageFailureOf(error: unknown): StorageFailure | null {
  let e: unknown = error;
  for (let depth = 0; depth < 8 && typeof e === 'object' && e !== null; depth++) {
    const failure = failureOf(e);
    if (failure) return failure;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

const FULL_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'SQLITE_FULL',
  '53100',
  'OBJECT_STORAGE_FULL',
]);

const UNAVAILABLE_CODES = new Set([
  // The file system under the data folder.
  'EROFS',
  'EIO',
  // The network path to PostgreSQL.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: shutting down, crashed, starting up, too many connections, out of memory.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '53200',
  // SQLite: the busy timeout ran out, or the file cannot be written or read.
  'SQLITE_BUSY',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  // The object store (S3ByteStore): it failed to answer, or refused (credentials, bucket).
  'OBJECT_STORAGE_UNAVAILABLE',
]);

/**
 * Errors pg raises without a code when the connection to PostgreSQL breaks or cannot be had, or
 * the server stops answering (the query timeout).
 */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];

function failureOf(e: { code?: unknown; message?: unknown }): StorageFailure | null {
  const { code } = e;
  if (typeof code === 'string') {
    if (FULL_CODES.has(code)) return 'full';
    // SQLSTATE class 08: connection exception; SQLite's extended I/O, read-only and busy codes.
    if (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'unavailable';
    if (/^SQLITE_(IOERR|READONLY|BUSY|CANTOPEN)_/.test(code)) return 'unavailable';
    return null;
  }
  const message = typeof e.message === 'string' ? e.message : '';
  return PG_CONNECTION_MESSAGES.some((m) => message.startsWith(m)) ? 'unavailable' : null;
}
