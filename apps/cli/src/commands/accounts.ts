import type { Command } from 'commander';
import { v1 } from '@galley/core';
import type { CliIo } from '../io.js';
import { CliError } from '../io.js';
import { InputError, notEmpty } from '../lib/exit.js';
import { undeliveredFailure, withStore } from '../store-options.js';

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
  const email = notEmpty(opts.email, '--email').trim().toLowerCase();
  if (email.length > maxEmailLength || !emailRule.safeParse(email).success)
    throw new InputError('invalid_option', `--email ${opts.email} is not an e-mail address`);
  const name = notEmpty(opts.name, '--name').trim();
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
  const accounts = program.command('accounts');
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
      await withStore(opts.data, io.env, async (store) => {
        const created = await store.accounts.create({ email: given, name, password });
        if (!created.ok)
          throw new CliError('email_taken', `an account with e-mail ${given} exists`);
        const { accountNumber, email } = created.account;
        const answer = JSON.stringify({
          account_number: accountNumber,
          email,
          ...(opts.password === undefined ? { password } : {}),
        });
        // A generated password is shown only here, and an account without it could never sign
        // in: when the answer cannot be written, the account is not kept (with any password, so
        // that a failed run leaves nothing behind).
        await io.deliver(answer).catch(async (error: unknown) => {
          await store.accounts.delete(accountNumber);
          throw undeliveredFailure(error, 'the account was not kept');
        });
      });
    });
}
