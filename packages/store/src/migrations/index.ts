// Every migration, by name. Names sort in the order they run; a new domain adds one line.
import type { Migration } from 'kysely';
import * as accounts from './001_accounts.js';

export const migrations: Record<string, Migration> = {
  '001_accounts': accounts,
};
