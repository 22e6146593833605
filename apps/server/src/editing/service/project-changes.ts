import type {
  Account,
  ConfirmationRecord,
  FolderState,
  ProjectRecord,
  RevisionState,
  Store,
  StoreScope,
} from '@galley/store';
import { v1ProblemOf } from '../problems.js';
import type { EditingSignals } from './editing-signals.js';
import type { FolderFiles } from './folder-files.js';
import { folderStateOf, renamedProjectJson } from './folder-state.js';
import type { HashedFolder } from './folder-state.js';
import { KeyedSerial } from './keyed-serial.js';
import type { EditingParts } from './parts.js';
import type { RevisionStates } from './revision-states.js';

/** A change of the saved folder, proposed against the current revision. */
export interface ChangeSpec {
  kind: 'save' | 'title' | 'folder';
  state: FolderState;
  summary: string;
  pageId?: string;
  at?: string;
  /** More writes in the same transaction, once the revision is recorded. */
  after?: (tx: StoreScope, recorded: RevisionState) => Promise<void>;
}

/**
 * A change with a commit id that turned out to change nothing (a save of the page as saved):
 * no revision is recorded, and `after` runs under the project's row lock with the project as it
 * is (to record the commit id's answer).
 */
export interface NoChange {
  kind: 'none';
  after: (tx: StoreScope, project: ProjectRecord) => Promise<void>;
}

/**
 * What a change with a commit id came to: the revision it recorded, the answer recorded earlier
 * under that id (nothing written), or nothing to change (the project as it is).
 */
export type CommitOutcome = Changed | { earlier: unknown } | { unchanged: ProjectRecord };

/**
 * A recorded change: the new revision's state, and the project as the change left it (read in
 * its transaction, so an answer never shows a change recorded after it).
 */
export interface Changed {
  state: RevisionState;
  project: ProjectRecord;
}

/**
 * Attempts before giving up when writes in other processes keep moving the revision (this
 * process runs its own one at a time per project), and the pause between them.
 */
const ATTEMPTS = 8;
const PAUSE_MS = 5;

/** 503 with `Retry-After`: the change was proposed ATTEMPTS times and never got its turn. */
const keptMoving = () =>
  v1ProblemOf('project_busy', {
    detail: 'Other changes of this project kept coming first; send it again.',
    headers: { 'Retry-After': '1' },
  });

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, PAUSE_MS * attempt * (0.5 + Math.random())));

/**
 * Every write that makes a new saved revision. Each one runs in one transaction holding the
 * project row; when another write moved the revision between reading and writing, the change
 * is proposed again on the newer state (so it is never applied to a state it did not see).
 * Within this process the changes of one project run one after another, so only writes of
 * other processes (sharing the store) can move the revision under a change.
 */
export class ProjectChanges {
  readonly #store: Store;
  readonly #states: RevisionStates;
  readonly #files: FolderFiles;
  readonly #signals: EditingSignals;
  readonly #serial = new KeyedSerial();

  constructor(options: EditingParts) {
    this.#store = options.store;
    this.#states = options.states;
    this.#files = options.files;
    this.#signals = options.signals;
  }

  async current(projectId: string): Promise<RevisionState> {
    const project = await this.#project(projectId);
    return this.#states.get(projectId, project.revision);
  }

  async #project(projectId: string): Promise<ProjectRecord> {
    const project = await this.#store.projects.find(projectId);
    if (!project) throw v1ProblemOf('not_found', { detail: 'No such project.' });
    return project;
  }

  async create(account: Account, hashed: HashedFolder): Promise<ProjectRecord> {
    const state = folderStateOf(hashed.folder, await this.#files.store(hashed));
    const project = await this.#store.projects.create({
      accountNumber: account.accountNumber,
      byName: account.name,
      state,
    });
    return project;
  }

  /** Records `propose(current)` as the next revision; answers the new state. */
  async change(
    projectId: string,
    account: Account,
    propose: (current: RevisionState) => Promise<ChangeSpec>,
  ): Promise<Changed> {
    const done = await this.#change(projectId, account, null, propose);
    if (!('state' in done)) throw new Error('a change without a commit id was found recorded');
    return done;
  }

  /**
   * Like `change`, for a change made once per commit id (a save): when a request with the same
   * id (in any process) has recorded it meanwhile, nothing is written and its answer is the
   * answer. The id is looked up under the project's row lock, in the transaction that would
   * record the change, so of two equal requests exactly one records it and the other finds it,
   * whichever order they reach the database in.
   */
  async commit(
    projectId: string,
    account: Account,
    commitId: string,
    propose: (current: RevisionState) => Promise<ChangeSpec | NoChange>,
  ): Promise<CommitOutcome> {
    return this.#change(projectId, account, commitId, propose);
  }

  #change(
    projectId: string,
    account: Account,
    commitId: string | null,
    propose: (current: RevisionState) => Promise<ChangeSpec | NoChange>,
  ): Promise<CommitOutcome> {
    return this.#serial.run(projectId, () => this.#attempt(projectId, account, commitId, propose));
  }

  async #attempt(
    projectId: string,
    account: Account,
    commitId: string | null,
    propose: (current: RevisionState) => Promise<ChangeSpec | NoChange>,
  ): Promise<CommitOutcome> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (attempt > 0) await pause(attempt);
      const current = await this.current(projectId);
      const spec = await propose(current);
      const outcome = await this.#store.transaction(async (tx): Promise<CommitOutcome | null> => {
        const locked = await tx.projects.lockRow(projectId);
        if (!locked) throw v1ProblemOf('not_found', { detail: 'No such project.' });
        if (commitId !== null) {
          const earlier = await tx.projectRevisions.findCommit(projectId, commitId);
          if (earlier !== null) return { earlier };
        }
        if (locked.revision !== current.revision) return null;
        if (spec.kind === 'none') {
          await spec.after(tx, locked);
          return { unchanged: locked };
        }
        const state = await tx.projectRevisions.record({
          projectId,
          kind: spec.kind,
          state: spec.state,
          summary: spec.summary,
          pageId: spec.pageId ?? null,
          commitId,
          ...(spec.at ? { at: spec.at } : {}),
          accountNumber: account.accountNumber,
          byName: account.name,
          step: 'change',
        });
        await spec.after?.(tx, state);
        return { state, project: (await tx.projects.find(projectId))! };
      });
      if (outcome) {
        if ('state' in outcome) {
          this.#states.remember(outcome.state);
          this.#announce(projectId, outcome.state.revision, spec as ChangeSpec);
        }
        return outcome;
      }
    }
    throw keptMoving();
  }

  #announce(projectId: string, revision: number, spec: ChangeSpec): void {
    const data = { revision, kind: spec.kind, page_id: spec.pageId ?? null };
    this.#signals.changed(projectId, { kind: 'project.saved', data });
  }

  /** Replaces the saved folder; answers the project as the change left it. */
  async replaceFolder(
    projectId: string,
    account: Account,
    hashed: HashedFolder,
  ): Promise<ProjectRecord> {
    const state = folderStateOf(hashed.folder, await this.#files.store(hashed));
    const changed = await this.change(projectId, account, () =>
      Promise.resolve({ kind: 'folder', state, summary: 'Replaced the folder' }),
    );
    return changed.project;
  }

  /**
   * A new revision with the title in project.json; none when the title is already that. Answers
   * the project as the change left it (as it is, when there was nothing to change).
   */
  async rename(projectId: string, account: Account, title: string): Promise<ProjectRecord> {
    const now = await this.current(projectId);
    if (now.title === title) return this.#project(projectId);
    const changed = await this.change(projectId, account, async (current) => {
      const entry = current.manifest.get('project.json');
      if (!entry) throw new Error(`project ${projectId} has no project.json`);
      const renamed = await this.#files.put(
        renamedProjectJson(await this.#files.file(entry.sha256), title),
      );
      const files = new Map(current.manifest);
      files.set('project.json', { ...renamed, revision: 0 });
      return {
        kind: 'title',
        state: { title, media: current.media, pages: current.pages, files },
        summary: `Renamed to “${title}”`,
      };
    });
    return changed.project;
  }

  /**
   * Undo or redo of the saved history, on the condition that `revision` is the current one.
   * Answers the project as the move left it.
   */
  async moveHistory(
    projectId: string,
    account: Account,
    direction: 'undo' | 'redo',
    revision: number,
  ): Promise<ProjectRecord> {
    const result = await this.#store.transaction(async (tx) => {
      const locked = await tx.projects.lockRow(projectId);
      if (!locked) throw v1ProblemOf('not_found', { detail: 'No such project.' });
      if (locked.revision !== revision) {
        throw v1ProblemOf('revision_conflict', {
          detail: `The current revision is ${locked.revision}.`,
          extras: { current_revision: locked.revision },
        });
      }
      const moved = await tx.projectRevisions.move({
        projectId,
        direction,
        accountNumber: account.accountNumber,
        byName: account.name,
      });
      return moved.ok
        ? { ok: true as const, project: (await tx.projects.find(projectId))! }
        : moved;
    });
    if (!result.ok) throw v1ProblemOf(result.code, { detail: `There is nothing to ${direction}.` });
    this.#signals.changed(projectId, {
      kind: 'project.saved',
      data: { revision: result.project.revision, kind: direction, page_id: null },
    });
    return result.project;
  }

  /**
   * Confirms the current saved revision as the next version: its deterministic ZIP is stored
   * first, so the version's bytes are exactly those whose SHA-256 is published.
   */
  confirm(projectId: string, account: Account, note: string | null): Promise<ConfirmationRecord> {
    return this.#serial.run(projectId, async () => {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (attempt > 0) await pause(attempt);
        const current = await this.current(projectId);
        const zip = await this.#files.zip(await this.#files.folder(current.manifest));
        const stored = await this.#files.put(zip);
        const confirmed = await this.#store.transaction(async (tx) => {
          const locked = await tx.projects.lockRow(projectId);
          if (!locked) throw v1ProblemOf('not_found', { detail: 'No such project.' });
          if (locked.revision !== current.revision) return null;
          return tx.confirmations.create({
            projectId,
            revision: current.revision,
            sha256: stored.sha256,
            size: stored.size,
            contentDigest: current.contentDigest,
            note,
            accountNumber: account.accountNumber,
            byName: account.name,
          });
        });
        if (confirmed) {
          this.#signals.changed(projectId, {
            kind: 'project.confirmed',
            data: {
              version: confirmed.version,
              revision: confirmed.revision,
              sha256: confirmed.sha256,
            },
          });
          return confirmed;
        }
      }
      throw keptMoving();
    });
  }
}
