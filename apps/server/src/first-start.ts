import { generatePassword } from '@galley/store';
import type { Store } from '@galley/store';

export const OFFICE_EMAIL = 'office@galley.local';

export interface OfficeCredentials {
  accountNumber: number;
  email: string;
  password: string;
  token: string;
}

/**
 * On an empty store, creates the service office's account with a one-time password and an API
 * token, and returns them so they can be shown once. On any other store: null. Two processes
 * starting at once collide on the unique e-mail, and only one gets the credentials.
 */
export async function bootstrapOffice(store: Store): Promise<OfficeCredentials | null> {
  if ((await store.accounts.count()) > 0) return null;
  const password = generatePassword();
  // One transaction: a crash never leaves an office account whose token was not shown.
  return store.transaction(async (tx) => {
    const created = await tx.accounts.create({
      email: OFFICE_EMAIL,
      name: 'Service office',
      password,
    });
    if (!created.ok) return null;
    const { accountNumber, email } = created.account;
    const { token } = await tx.tokens.issue({ accountNumber });
    return { accountNumber, email, password, token };
  });
}
