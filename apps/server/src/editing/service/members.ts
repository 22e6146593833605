import type { ProjectRole, Store } from '@galley/store';
import { lastOwner, unknownAccount, v1ProblemOf } from '../problems.js';
import type { EditingSignals } from './editing-signals.js';

interface Deps {
  store: Store;
  signals: EditingSignals;
}

/**
 * Makes the account with this e-mail address a member with `role` (or gives a member another
 * role). One owner always stays: the change is decided on the project's row, locked, so two
 * owners lowering each other at once cannot both succeed.
 */
export async function putMember(
  deps: Deps,
  projectId: string,
  input: { email: string; role: ProjectRole },
): Promise<void> {
  const account = await deps.store.accounts.findByEmail(input.email);
  if (!account) throw unknownAccount();
  const changed = await deps.store.transaction(async (tx) => {
    await tx.projects.lockRow(projectId);
    return tx.projectMembers.put(projectId, account.accountNumber, input.role);
  });
  if (!changed.ok) throw lastOwner();
  deps.signals.changed(projectId, { kind: 'project.members_changed', data: {} });
}

/** Removes a member (an owner's change, or a member leaving); one owner always stays. */
export async function removeMember(
  deps: Deps,
  projectId: string,
  accountNumber: number,
): Promise<void> {
  const removed = await deps.store.transaction(async (tx) => {
    await tx.projects.lockRow(projectId);
    return tx.projectMembers.remove(projectId, accountNumber);
  });
  if (!removed.ok) {
    if (removed.code === 'not_member')
      throw v1ProblemOf('not_found', { detail: 'No such member.' });
    throw lastOwner();
  }
  deps.signals.changed(projectId, { kind: 'project.members_changed', data: {} });
}
