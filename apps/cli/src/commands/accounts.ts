import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { CliError } from '../io.js';
import { withStore } from '../store-options.js';

/** `galley accounts add`: accounts are issued by the service office (decisions §2). */
export function registerAccounts(program: Command, io: CliIo): void {
  const accounts = program.command('accounts').description('manage accounts');
  accounts
    .command('add')
    .description('create an account; prints {"account_number", "email"} (and a generated password)')
    .option('--data <dir>', 'data folder (default: GALLEY_DATA_DIR or ./galley-data)')
    .requiredOption('--email <email>', 'e-mail address (unique)')
    .requiredOption('--name <name>', 'display name')
    .option('--password <password>', 'password (generated and printed when not given)')
    .action(async (opts: { data?: string; email: string; name: string; password?: string }) => {
      const password = opts.password ?? (await import('@galley/store')).generatePassword();
      const created = await withStore(opts.data, io.env, (store) =>
        store.accounts.create({ email: opts.email, name: opts.name, password }),
      );
      if (!created.ok)
        throw new CliError('email_taken', `an account with e-mail ${opts.email} exists`);
      const { accountNumber, email } = created.account;
      io.out(
        JSON.stringify({
          account_number: accountNumber,
          email,
          ...(opts.password === undefined ? { password } : {}),
        }),
      );
    });
}
