import type { RepoScope } from '../scope.js';
import { isoTime } from '../time.js';
import type { ProjectRole } from './projects-repository.js';

export interface MemberRecord {
  accountNumber: number;
  name: string;
  email: string;
  role: ProjectRole;
}

export type MemberChange = { ok: true } | { ok: false; code: 'last_owner' | 'not_member' };

/**
 * Who may open a project, and with which role. The writers keep at least one owner; call them
 * inside a transaction that holds the project row (`projects.lockRow`), so two owners demoting
 * each other at once cannot both succeed.
 */
export class MembersRepository {
  readonly #scope: RepoScope;

  constructor(scope: RepoScope) {
    this.#scope = scope;
  }

  /**
   * Members in account-number order: all of them, or a page of at most `limit` after the
   * account number `after`.
   */
  async list(
    projectId: string,
    options: { limit?: number; after?: number } = {},
  ): Promise<MemberRecord[]> {
    let query = this.#scope.db
      .selectFrom('project_members as m')
      .innerJoin('accounts as a', 'a.account_number', 'm.account_number')
      .select(['m.account_number', 'a.name', 'a.email', 'm.role'])
      .where('m.project_id', '=', projectId);
    if (options.after !== undefined) query = query.where('m.account_number', '>', options.after);
    query = query.orderBy('m.account_number');
    if (options.limit !== undefined) query = query.limit(options.limit);
    const rows = await query.execute();
    return rows.map((row) => ({
      accountNumber: row.account_number,
      name: row.name,
      email: row.email,
      role: row.role as ProjectRole,
    }));
  }

  async roleOf(projectId: string, accountNumber: number): Promise<ProjectRole | null> {
    const row = await this.#scope.db
      .selectFrom('project_members')
      .select('role')
      .where('project_id', '=', projectId)
      .where('account_number', '=', accountNumber)
      .executeTakeFirst();
    return row ? (row.role as ProjectRole) : null;
  }

  /** Makes the account a member with `role`, or changes its role. */
  async put(projectId: string, accountNumber: number, role: ProjectRole): Promise<MemberChange> {
    const current = await this.roleOf(projectId, accountNumber);
    if (current === role) return { ok: true };
    if (current === 'owner' && (await this.#owners(projectId)) <= 1) {
      return { ok: false, code: 'last_owner' };
    }
    if (current === null) {
      const addedAt = isoTime(this.#scope.clock.now());
      await this.#scope.db
        .insertInto('project_members')
        .columns(['project_id', 'account_number', 'role', 'added_at', 'project_created_at'])
        .expression((eb) =>
          eb
            .selectFrom('projects')
            .select((p) => [
              'id',
              p.val(accountNumber).as('account_number'),
              p.val(role).as('role'),
              p.val(addedAt).as('added_at'),
              'created_at',
            ])
            .where('id', '=', projectId),
        )
        .execute();
    } else {
      await this.#scope.db
        .updateTable('project_members')
        .set({ role })
        .where('project_id', '=', projectId)
        .where('account_number', '=', accountNumber)
        .execute();
    }
    if (role === 'viewer') await this.#dropLocksOf(projectId, accountNumber);
    return { ok: true };
  }

  async remove(projectId: string, accountNumber: number): Promise<MemberChange> {
    const current = await this.roleOf(projectId, accountNumber);
    if (current === null) return { ok: false, code: 'not_member' };
    if (current === 'owner' && (await this.#owners(projectId)) <= 1) {
      return { ok: false, code: 'last_owner' };
    }
    await this.#scope.db
      .deleteFrom('project_members')
      .where('project_id', '=', projectId)
      .where('account_number', '=', accountNumber)
      .execute();
    await this.#dropLocksOf(projectId, accountNumber);
    return { ok: true };
  }

  /**
   * A lock only an editor can hold: one left by an account that is no longer a member, or now a
   * viewer, would hold every other writer off until it expired, and its holder could not even
   * release it.
   */
  async #dropLocksOf(projectId: string, accountNumber: number): Promise<void> {
    await this.#scope.db
      .deleteFrom('project_locks')
      .where('project_id', '=', projectId)
      .where('account_number', '=', accountNumber)
      .execute();
  }

  async #owners(projectId: string): Promise<number> {
    const { n } = await this.#scope.db
      .selectFrom('project_members')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('project_id', '=', projectId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}
