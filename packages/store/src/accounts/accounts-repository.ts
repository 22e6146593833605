import { isUniqueViolation } from '../errors.js';
import { deleteRowByKey } from '../rows.js';
import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';
import type { AccountsTable } from './tables.js';
import { hashPassword, verifyPassword } from './passwords.js';

export interface Account {
  accountNumber: number;
  email: string;
  name: string;
  createdAt: string;
}

export type CreateAccountResult =
  { ok: true; account: Account } | { ok: false; code: 'email_taken' };

/** Account numbers start here (decisions §1). */
export const FIRST_ACCOUNT_NUMBER = 1001;

/** E-mail addresses are compared without case and surrounding space. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function toAccount(
  row: Pick<AccountsTable, 'account_number' | 'email' | 'name' | 'created_at'>,
): Account {
  return {
    accountNumber: row.account_number,
    email: row.email,
    name: row.name,
    createdAt: row.created_at,
  };
}

const ACCOUNT_COLUMNS = ['account_number', 'email', 'name', 'created_at'] as const;

export class AccountsRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Creates an account with the next free number. The number is max + 1 inside a transaction;
   * two concurrent creators on PostgreSQL collide on the primary key and the loser retries.
   */
  async create(input: {
    email: string;
    name: string;
    password: string;
  }): Promise<CreateAccountResult> {
    const email = normalizeEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    for (let attempt = 0; ; attempt++) {
      try {
        const account = await this.#scope.transaction(async ({ db, clock }) => {
          const { max } = await db
            .selectFrom('accounts')
            .select((eb) => eb.fn.max('account_number').as('max'))
            .executeTakeFirstOrThrow();
          const row = {
            account_number: Math.max(Number(max ?? 0) + 1, FIRST_ACCOUNT_NUMBER),
            email,
            name: input.name,
            password_hash: passwordHash,
            created_at: isoTime(clock.now()),
          };
          await db.insertInto('accounts').values(row).execute();
          return toAccount(row);
        });
        return { ok: true, account };
      } catch (error) {
        if (isUniqueViolation(error, 'email')) return { ok: false, code: 'email_taken' };
        // Inside a caller's transaction a PostgreSQL error has aborted it: the caller retries.
        if (attempt < 5 && isUniqueViolation(error) && !this.#scope.db.isTransaction) continue;
        throw error;
      }
    }
  }

  /**
   * Deletes an account, and by cascade its tokens, sessions and memberships: for undoing a
   * creation whose password could not be handed over (`galley accounts add` with stdout
   * failing). False when there is no such account.
   */
  async delete(accountNumber: number): Promise<boolean> {
    return deleteRowByKey(this.#scope.db, 'accounts', 'account_number', accountNumber);
  }

  async findByEmail(email: string): Promise<Account | null> {
    const row = await this.#scope.db
      .selectFrom('accounts')
      .select(ACCOUNT_COLUMNS)
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async findByNumber(accountNumber: number): Promise<Account | null> {
    const row = await this.#scope.db
      .selectFrom('accounts')
      .select(ACCOUNT_COLUMNS)
      .where('account_number', '=', accountNumber)
      .executeTakeFirst();
    return row ? toAccount(row) : null;
  }

  async count(): Promise<number> {
    const { n } = await this.#scope.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** The account when e-mail and password match, else null (same answer for either mistake). */
  async verifyLogin(email: string, password: string): Promise<Account | null> {
    const row = await this.#scope.db
      .selectFrom('accounts')
      .select([...ACCOUNT_COLUMNS, 'password_hash'])
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
    if (!row) {
      // Spend the same work as a real check so timing does not tell which accounts exist.
      await verifyPassword(password, DUMMY_HASH);
      return null;
    }
    const { ok, rehash } = await verifyPassword(password, row.password_hash);
    if (!ok) return null;
    // An older kind of hash is replaced now that the password is known (only if unchanged
    // meanwhile: a password set by another request wins).
    if (rehash) {
      await this.#scope.db
        .updateTable('accounts')
        .set({ password_hash: await hashPassword(password) })
        .where('account_number', '=', row.account_number)
        .where('password_hash', '=', row.password_hash)
        .execute();
    }
    return toAccount(row);
  }

  async setPassword(accountNumber: number, password: string): Promise<boolean> {
    const result = await this.#scope.db
      .updateTable('accounts')
      .set({ password_hash: await hashPassword(password) })
      .where('account_number', '=', accountNumber)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

/** A well-formed Argon2id hash of no password: checking against it costs what a real check does. */
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
