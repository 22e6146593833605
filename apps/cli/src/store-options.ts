import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Account, Store, StoreOptions } from '@galley/store';
import type { CliIo } from './io.js';
import { CliError } from './io.js';
import { CommandFailure, InputError, notEmpty } from './lib/exit.js';

/** `--data` as given: leaving it out falls back to GALLEY_DATA_DIR, giving it empty is a mistake. */
export function dataOption(data: string | undefined): string | undefined {
  return data === undefined ? undefined : notEmpty(data, '--data', 'give the data folder');
}

/**
 * `--data` (else GALLEY_DATA_DIR, else ./galley-data), with GALLEY_DATABASE_URL for PostgreSQL and
 * GALLEY_BYTES_URL (and the AWS_* variables) for bytes in a bucket.
 */
export async function storeOptionsFor(
  data: string | undefined,
  env: CliIo['env'],
): Promise<StoreOptions> {
  const dataDir = resolve(data ?? (env.GALLEY_DATA_DIR || './galley-data'));
  const url = env.GALLEY_DATABASE_URL;
  const bytesUrl = env.GALLEY_BYTES_URL;
  const objectBytes = bytesUrl
    ? { objectBytes: (await import('@galley/store')).objectBytesOptionsOf(bytesUrl, env) }
    : {};
  return url
    ? { kind: 'postgres', url, bytesDir: join(dataDir, 'bytes'), ...objectBytes }
    : { kind: 'sqlite', dataDir, ...objectBytes };
}

/**
 * Opens the store of an existing data folder for one command and always closes it. Only
 * `galley serve` makes a data folder: a mistyped `--data` here is refused (exit 2) instead of
 * becoming a new, empty service. With PostgreSQL the records live in the database, and the
 * folder (bytes only) is not required.
 */
export async function withStore<T>(
  data: string | undefined,
  env: CliIo['env'],
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const options = await storeOptionsFor(dataOption(data), env);
  const { openStore, sqliteFileOf } = await import('@galley/store'); // only where needed
  if (options.kind === 'sqlite') {
    const file = sqliteFileOf(options.dataDir);
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) {
      const folder = await stat(options.dataDir).catch(() => undefined);
      throw new InputError(
        'no_data_folder',
        `no Galley data folder at ${options.dataDir} (${folder?.isDirectory() ? `it holds no ${basename(file)}` : 'it does not exist'}); give --data or GALLEY_DATA_DIR, or start \`galley serve\` there first`,
      );
    }
  }
  const store = await openStore(options);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

export async function accountByEmail(store: Store, email: string): Promise<Account> {
  const account = await store.accounts.findByEmail(email);
  if (!account) throw new CliError('unknown_account', `no account with e-mail ${email}`);
  return account;
}

/**
 * The failure to print a record's only secret (a generated password, a new token), once the
 * record is undone: `undone` says what became of it.
 */
export function undeliveredFailure(error: unknown, undone: string): CommandFailure {
  const code = (error as { code?: unknown } | null)?.code;
  return new CommandFailure(
    'write_failed',
    `cannot write to standard output${typeof code === 'string' ? ` (${code})` : ''}; ${undone}`,
  );
}
