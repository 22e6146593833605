import type { Store, StoreOptions } from '@galley/store';
import { CommandFailure } from './exit.js';

/** PostgreSQL's URL as `user@host:port/database`: never its password, nor its query. */
function postgresPlace(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname}:${u.port || '5432'}/${decodeURIComponent(u.pathname.slice(1))}`;
  } catch {
    return 'the server in GALLEY_DATABASE_URL'; // pg says what is wrong with it when it connects
  }
}

/** Where the records are, for the start line: `SQLite /…/galley.sqlite`, `PostgreSQL u@h:5432/db`. */
export async function storeText(options: StoreOptions): Promise<string> {
  if (options.kind === 'postgres') return `PostgreSQL ${postgresPlace(options.url)}`;
  const { sqliteFileOf } = await import('@galley/store');
  return `SQLite ${sqliteFileOf(options.dataDir)}`;
}

/** The codes of PostgreSQL and of the network that say which part of the setting to look at. */
function advice(code: unknown): string {
  switch (code) {
    case '28P01':
    case '28000':
      return 'the user or password in it';
    case '3D000':
      return 'the database name in it (create the database first)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name in it';
    default:
      return 'the host and port in it, and that PostgreSQL runs and accepts connections there';
  }
}

/** The driver's error under the store's own (or a connection's several): the one with the code. */
function causeOf(error: unknown): { code?: unknown } {
  let at = error as { cause?: unknown; errors?: unknown[] } | undefined;
  while (at?.cause !== undefined || at?.errors?.length)
    at = (at.cause ?? at.errors?.[0]) as typeof at;
  return (at ?? {}) as { code?: unknown };
}

/**
 * Opens the store, or says in one line which setting to check when its database cannot be
 * reached or refuses the connection, instead of the driver's bare `ECONNREFUSED`.
 */
export async function openStoreExplained(options: StoreOptions): Promise<Store> {
  const { openStore } = await import('@galley/store');
  try {
    return await openStore(options);
  } catch (error) {
    if (options.kind !== 'postgres') throw error;
    const { code } = causeOf(error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new CommandFailure(
      'unreachable',
      `cannot use the database PostgreSQL ${postgresPlace(options.url)}${typeof code === 'string' ? ` (${code})` : ''}: ${reason}; check GALLEY_DATABASE_URL (docs/operations.md): ${advice(code)}`,
      { cause: error },
    );
  }
}
