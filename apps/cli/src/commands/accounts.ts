import type { Command } from 'commander';
import { v1 } from '@galley/core';
import type { CliIo } from '../io.js';
import { CliError } from '../io.js';
import { InputError } from '../lib/exit.js';
import { withStore } from '../store-options.js';

/**
 * The limits of `POST /auth/login` (`email` 1 to 320 characters, `password` 1 to 1024), so an
 * account made here can sign in; an e-mail must also be one the service can add to a project
 * (`PUT …/members` takes `z.email()`), checked as the store keeps it: trimmed, lower-case.
 */
const maxEmailLength = 320;
const maxPasswordLength = 1024;
const emailRule = v1.PutMember.shape.email;

interface AddOptions {
  data?: string;
  email: string;
  name: string;
  password?: string;
}

/** The account to create, or a usage error (exit 2) naming the option that cannot be used. */
function accountInput(opts: AddOptions): { email: string; name: string } {
  const email = opts.email.trim().toLowerCase();
  if (email === '') throw new InputError('invalid_option', '--email is empty');
  if (email.length > maxEmailLength || !emailRule.safeParse(email).success)
    throw new InputError('invalid_option', `--email ${opts.email} is not an e-mail address`);
  const name = opts.name.trim();
  if (name === '') throw new InputError('invalid_option', '--name is empty');
  if (opts.password !== undefined && opts.password.length === 0)
    throw new InputError(
      'invalid_option',
      '--password is empty; leave it out to have a password generated',
    );
  if (opts.password !== undefined && opts.password.length > maxPasswordLength)
    throw new InputError(
      'invalid_option',
      `--password is longer than ${maxPasswordLength} characters; the sign-in takes no more`,
    );
  return { email, name };
}

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
    .action(async (opts: AddOptions) => {
      const { email: given, name } = accountInput(opts);
      const password = opts.password ?? (await import('@galley/store')).generatePassword();
      const created = await withStore(opts.data, io.env, (store) =>
        store.accounts.create({ email: given, name, password }),
      );
      if (!created.ok) throw new CliError('email_taken', `an account with e-mail ${given} exists`);
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
