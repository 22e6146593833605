import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { CliError } from '../io.js';
import { notEmpty } from '../lib/exit.js';
import { wholeNumberOption } from '../lib/number-option.js';
import { accountByEmail, undeliveredFailure, withStore } from '../store-options.js';

/**
 * The store's MAX_TOKEN_DAYS (decisions §2: a token is valid 90 days), repeated so that the CLI
 * starts without loading the store; the store refuses anything longer as well.
 */
const MAX_TOKEN_DAYS = 90;

/** `galley tokens issue|list|revoke`: API tokens of one account, usable while the server runs. */
export function registerTokens(program: Command, io: CliIo): void {
  const tokens = program.command('tokens');
  const common = (cmd: Command) =>
    cmd
      .option('--data <dir>', 'data folder (default: GALLEY_DATA_DIR or ./galley-data)')
      .requiredOption('--email <email>', "the account's e-mail address");

  common(tokens.command('issue'))
    .description('issue a token; prints only the token (shown this once)')
    .option(
      '--days <n>',
      `validity in days, 1 to ${MAX_TOKEN_DAYS}`,
      wholeNumberOption(1, MAX_TOKEN_DAYS),
      MAX_TOKEN_DAYS,
    )
    .action(async (opts: { data?: string; email: string; days: number }) => {
      const email = notEmpty(opts.email, '--email');
      await withStore(opts.data, io.env, async (store) => {
        const { accountNumber } = await accountByEmail(store, email);
        const { token, record } = await store.tokens.issue({ accountNumber, days: opts.days });
        // The token is shown only here: one nobody saw is revoked rather than left valid.
        await io.deliver(token).catch(async (error: unknown) => {
          await store.tokens.revoke({ accountNumber, idOrPrefix: record.id });
          throw undeliveredFailure(error, 'the token was revoked');
        });
      });
    });

  common(tokens.command('list'))
    .description("list the account's tokens as JSON (prefixes only, never the tokens)")
    .action(async (opts: { data?: string; email: string }) => {
      const email = notEmpty(opts.email, '--email');
      const list = await withStore(opts.data, io.env, async (store) => {
        const account = await accountByEmail(store, email);
        return store.tokens.list(account.accountNumber);
      });
      const { tokenListing } = await import('@galley/store');
      io.out(JSON.stringify(list.map(tokenListing)));
    });

  common(tokens.command('revoke'))
    .description('revoke a token by its id or its listed prefix')
    .argument('<id-or-prefix>')
    .action(async (idOrPrefix: string, opts: { data?: string; email: string }) => {
      const email = notEmpty(opts.email, '--email');
      notEmpty(idOrPrefix, 'the token id or prefix', 'give one `tokens list` shows');
      const revoked = await withStore(opts.data, io.env, async (store) => {
        const account = await accountByEmail(store, email);
        return store.tokens.revoke({ accountNumber: account.accountNumber, idOrPrefix });
      });
      if (!revoked)
        throw new CliError('unknown_token', `no active token ${idOrPrefix} for ${opts.email}`);
      io.out(JSON.stringify({ revoked: idOrPrefix }));
    });
}
