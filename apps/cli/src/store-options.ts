import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Account, Store, StoreOptions } from '@galley/store';
import type { CliIo } from './io.js';
import { CliError } from './io.js';
import { InputError } from './lib/exit.js';

/** `--data` (else GALLEY_DATA_DIR, else ./galley-data), with GALLEY_DATABASE_URL for PostgreSQL. */
export function storeOptionsFor(data: string | undefined, env: CliIo['env']): StoreOptions {
  const dataDir = resolve(data ?? (env.GALLEY_DATA_DIR || './galley-data'));
  const url = env.GALLEY_DATABASE_URL;
  return url
    ? { kind: 'postgres', url, bytesDir: join(dataDir, 'bytes') }
    : { kind: 'sqlite', dataDir };
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
  const { openStore, sqliteFileOf } = await import('@galley/store'); // only where needed
  const options = storeOptionsFor(data, env);
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
