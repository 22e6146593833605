import type { EventRecord, Store } from '@galley/store';

/** How many (account, project) answers are remembered at most. */
const MAX_REMEMBERED = 100_000;

/**
 * Who may see an event: a project's events go to its members, an asset's to its owner. Whether
 * an account can open a project is read once and remembered until the project's members change
 * or it is deleted (their events say so), or the next heartbeat forgets everything (changes no
 * event tells). An event that names its audience (`project.deleted`) goes to those it names.
 */
export class ProjectAudience {
  readonly #store: Store;
  readonly #members = new Map<string, boolean>();

  constructor(store: Store) {
    this.#store = store;
  }

  /**
   * Called with every event before it is offered to anyone. Members changed, or the project
   * deleted: who may see its events is read anew (after a deletion nobody may, so an event of
   * it stored later, by a write that finished meanwhile, reaches no former member).
   */
  noteChange(event: EventRecord): void {
    if (event.kind !== 'project.members_changed' && event.kind !== 'project.deleted') return;
    for (const key of this.#members.keys()) {
      if (key.endsWith(` ${event.projectId}`)) this.#members.delete(key);
    }
  }

  forgetAll(): void {
    this.#members.clear();
  }

  /** Whether `accountNumber` may see `event`; synchronous when the answer is remembered. */
  sees(accountNumber: number, event: EventRecord): boolean | Promise<boolean> {
    if (event.audience) return event.audience.includes(accountNumber);
    if (event.projectId === null) return event.accountNumber === accountNumber;
    const key = `${accountNumber} ${event.projectId}`;
    const known = this.#members.get(key);
    if (known !== undefined) return known;
    return this.#store.projects.access(event.projectId, accountNumber).then((access) => {
      if (this.#members.size >= MAX_REMEMBERED) this.#members.clear();
      this.#members.set(key, access !== null);
      return access !== null;
    });
  }
}
