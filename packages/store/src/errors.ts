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
