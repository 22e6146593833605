import { join, resolve } from 'node:path';
import type { Account, Store, StoreOptions } from '@galley/store';
import type { CliIo } from './io.js';
import { CliError } from './io.js';

/** `--data` (else GALLEY_DATA_DIR, else ./galley-data), with GALLEY_DATABASE_URL for PostgreSQL. */
export function storeOptionsFor(data: string | undefined, env: CliIo['env']): StoreOptions {
  const dataDir = resolve(data ?? (env.GALLEY_DATA_DIR || './galley-data'));
  const url = env.GALLEY_DATABASE_URL;
  return url
    ? { kind: 'postgres', url, bytesDir: join(dataDir, 'bytes') }
    : { kind: 'sqlite', dataDir };
}

/** Opens the store for one command and always closes it. */
export async function withStore<T>(
  data: string | undefined,
  env: CliIo['env'],
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const { openStore } = await import('@galley/store'); // loaded only by commands that need it
  const store = await openStore(storeOptionsFor(data, env));
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
