import { blocksSave, checkSave } from '@galley/core';
import type { v1 } from '@galley/core';
import type {
  Account,
  Clock,
  DraftRecord,
  LockHolder,
  LockRecord,
  PageAccess,
  Store,
  StoreScope,
} from '@galley/store';
import { isoTime, sha256Hex } from '@galley/store';
import type { z } from 'zod';
import { folderCheckFailed, v1ProblemOf } from '../problems.js';
import { requireOwnLock } from './access.js';
import type { DraftService } from './draft-service.js';
import type { FolderFiles } from './folder-files.js';
import { folderStateOf } from './folder-state.js';
import type { ProjectChanges } from './project-changes.js';

type Saved = z.output<typeof v1.Saved>;
type SaveRequest = z.output<typeof v1.SaveRequest>;

/**
 * Step 4 of the editing flow: the draft becomes a saved revision when the folder with the new
 * page passes every check (else 422, nothing saved, the draft stays open); a page changed since
 * the draft's base is a 409. The same `commit_id` again answers the first answer, saving nothing.
 */
export class SaveService {
  readonly #store: Store;
  readonly #drafts: DraftService;
  readonly #changes: ProjectChanges;
  readonly #files: FolderFiles;
  readonly #clock: Clock;

  constructor(options: {
    store: Store;
    drafts: DraftService;
    changes: ProjectChanges;
    files: FolderFiles;
    clock: Clock;
  }) {
    this.#store = options.store;
    this.#drafts = options.drafts;
    this.#changes = options.changes;
    this.#files = options.files;
    this.#clock = options.clock;
  }

  /**
   * Saves the caller's draft (as read with `editing`), in the draft's turn: a resend of a save
   * (its `commit_id`) answers its first answer, before anything else is asked of it; otherwise it
   * needs the caller's lock (409) and the draft's newest token (409 `stale_draft_token`).
   */
  saveDraft(
    editing: {
      access: PageAccess;
      lock: LockRecord | null;
      holder: LockHolder;
      draft: DraftRecord | null;
    },
    account: Account,
    request: SaveRequest,
  ): Promise<Saved> {
    const { access, lock, holder, draft } = editing;
    return this.#drafts.exclusive(access, holder, async () => {
      const replay = await this.#replay(access, request.commit_id);
      if (replay) return replay;
      requireOwnLock(lock, holder);
      const row = await this.#drafts.row(access, holder, draft);
      if (row.token !== request.draft_token) {
        // The same save, finished meanwhile by another process, may have moved the token.
        const finished = await this.#replay(access, request.commit_id);
        if (finished) return finished;
        throw v1ProblemOf('stale_draft_token', { detail: 'Save with the newest draft token.' });
      }
      return this.#save(access, account, row, request);
    });
  }

  /** The answer of the save that used `commitId` in this project, or null (see `ownAnswer`). */
  async #replay(access: PageAccess, commitId: string): Promise<Saved | null> {
    const saved = await this.#store.projectRevisions.findCommit(access.project.id, commitId);
    return saved === null ? null : ownAnswer(access, saved as Saved);
  }

  /**
   * Saves the caller's draft `row`, whose token the caller has checked. The same save may also
   * run in another process at the same time (a client resending it to another server): then
   * exactly one records it, and both answer the recorded answer.
   */
  async #save(
    access: PageAccess,
    account: Account,
    row: DraftRecord,
    body: SaveRequest,
  ): Promise<Saved> {
    try {
      return await this.#write(access, account, row, body);
    } catch (error) {
      // The same commit id was recorded while this request ran (its revision moved the page
      // from under this one, or took the commit id first: a unique violation): the first answer
      // is the answer. Any other failure stands (and a failed look-up does not hide it).
      const first = await this.#replay(access, body.commit_id).catch(() => null);
      if (first) return first;
      throw error;
    }
  }

  async #write(
    access: PageAccess,
    account: Account,
    row: DraftRecord,
    body: SaveRequest,
  ): Promise<Saved> {
    const { page, project } = access;
    const live = await this.#drafts.live(row);
    const edited = live.draft.html();
    const baseBytes = await this.#files.file(row.baseSha256);
    const reopened = this.#drafts.reopen(row, new TextDecoder().decode(baseBytes), edited);
    const html = reopened.saved;
    // Edits that came to nothing store the page byte for byte as it was written.
    const bytes = reopened.asWritten ? baseBytes : new TextEncoder().encode(html);
    const savedAt = isoTime(this.#clock.now());
    const sha256 = reopened.asWritten ? row.baseSha256 : sha256Hex(bytes);
    let answer: Saved | undefined;
    // The draft goes on from the saved page with an empty undo stack, unless this request's twin
    // (in another process) saved the same page from under it and rebased it already.
    let rebased = false;
    const rebase = async (tx: StoreScope, baseRevision: number, baseSha256: string) => {
      rebased = true;
      await tx.drafts.rebase({
        draft: row,
        baseRevision,
        baseSha256,
        ...(reopened.token !== row.token ? { newToken: reopened.token } : {}),
      });
    };
    // The commit id is looked up again under the project's lock, before the revision is
    // compared: recorded meanwhile (by this request's twin in another process), it is answered
    // and nothing is saved. A twin recorded before `current` was read fails the base check
    // below instead; `save` then finds its answer (its commit id is in the same transaction).
    const outcome = await this.#changes.commit(
      project.id,
      account,
      body.commit_id,
      async (current) => {
        const base = current.manifest.get(page.file);
        if (base?.sha256 === sha256) {
          // The page as it is saved: no revision, whatever the draft's base (another save of
          // this draft, in this process or another, may have just saved these very bytes).
          return {
            kind: 'none',
            after: async (tx, project) => {
              answer = { page, revision: project.revision, saved_at: project.updatedAt };
              await tx.projectRevisions.recordCommit(project.id, body.commit_id, answer);
              if (row.baseSha256 === sha256) await rebase(tx, project.revision, sha256);
            },
          };
        }
        if (!base || base.sha256 !== row.baseSha256) {
          throw v1ProblemOf('revision_conflict', {
            detail: `${page.file} changed since revision ${row.baseRevision}, the base of this draft.`,
            extras: { current_revision: current.revision },
          });
        }
        const folder = await this.#files.folder(current.manifest);
        // The very check the browser bundle runs before it saves (same input, same report).
        const report = checkSave({ folder, file: page.file, html });
        if (blocksSave(report)) throw folderCheckFailed(report);
        folder.set(page.file, bytes);
        const stored = await this.#files.put(bytes);
        const files = new Map(current.manifest).set(page.file, { ...stored, revision: 0 });
        return {
          kind: 'save',
          state: folderStateOf(folder, files),
          summary: `Saved ${page.file}`,
          pageId: page.id,
          at: savedAt,
          after: async (tx, recorded) => {
            answer = { page, revision: recorded.revision, saved_at: savedAt };
            await tx.projectRevisions.recordCommit(project.id, body.commit_id, answer);
            await rebase(tx, recorded.revision, stored.sha256);
          },
        };
      },
    );
    if ('earlier' in outcome) return ownAnswer(access, outcome.earlier as Saved);
    if (rebased) this.#drafts.rebased(row, reopened);
    return answer!;
  }
}

/**
 * An earlier save's answer, as the answer to a save of `access.page` with the same commit id:
 * one that saved another page is 409 `commit_id_reused` (answering it would tell the caller this
 * page was saved, when it was not).
 */
function ownAnswer(access: PageAccess, saved: Saved): Saved {
  if (saved.page.id !== access.page.id) {
    throw v1ProblemOf('commit_id_reused', {
      detail: `This commit_id saved ${saved.page.file}; send a new commit_id with every save.`,
    });
  }
  return saved;
}
