import { createReadMemo, Draft } from '@galley/core';
import type {
  CheckReport,
  ElementView,
  Folder,
  Operation,
  OperationResult,
  Outline,
  v1,
} from '@galley/core';
import type { z } from 'zod';
import { attempt } from './attempt.js';
import { fail, succeed } from './result.js';
import type { Outcome } from './result.js';
import { randomUuid } from './uuid.js';
import { blocksSave } from '@galley/core';
import { validateBeforeSave } from './validate.js';

export type Saved = z.output<typeof v1.Saved>;
export type DraftAnswer = z.output<typeof v1.DraftAnswer>;
export type OperationAnswer = z.output<typeof v1.OperationAnswer>;
export type PageRef = DraftAnswer['page'];

/** The draft endpoints of the editing interface: `createClient(...).v1` fits. */
export interface DraftEndpoints {
  openDraft(pageId: string): Promise<DraftAnswer>;
  applyOperation(
    pageId: string,
    body: { draft_token: string; operation: Operation },
  ): Promise<OperationAnswer>;
  undoDraft(pageId: string): Promise<OperationAnswer>;
  redoDraft(pageId: string): Promise<OperationAnswer>;
  save(pageId: string, body: { draft_token: string; commit_id: string }): Promise<Saved>;
}

/**
 * A page's draft kept in step on both sides: each operation, undo and redo runs on the local
 * engine first (a refusal costs no request, and a screen shows the result at once), then on the
 * server. The server's answer is compared with the local one (result nodes and ids); any
 * difference, a failed request or a draft with history from before this page opened it makes the
 * local copy reload the server's draft, so the local checks before saving always judge the very
 * HTML the server will save.
 */
export class SyncedDraft {
  private token: string;
  private server: { canUndo: boolean; canRedo: boolean };
  /** Set when the last reload failed: the next call reloads before anything else. */
  private stale = false;
  /** The other pages of the folder, read once for every check of this page's draft. */
  private readonly memo = createReadMemo();

  private constructor(
    private readonly api: DraftEndpoints,
    readonly page: PageRef,
    private local: Draft,
    answer: DraftAnswer,
    private baseRevisionValue: number,
  ) {
    this.token = answer.draft_token;
    this.server = { canUndo: answer.can_undo, canRedo: answer.can_redo };
  }

  /** Opens (or picks up) the caller's draft of the page; the caller must hold the project's lock. */
  static async open(api: DraftEndpoints, pageId: string): Promise<Outcome<SyncedDraft>> {
    const got = await attempt(() => api.openDraft(pageId));
    if (!got.ok) return got;
    const answer = got.value;
    const opened = Draft.open(answer.html);
    if (!opened.ok) return fail({ kind: 'refused', errors: opened.errors });
    return succeed(new SyncedDraft(api, answer.page, opened.draft, answer, answer.base_revision));
  }

  get draftToken(): string {
    return this.token;
  }
  get baseRevision(): number {
    return this.baseRevisionValue;
  }
  get canUndo(): boolean {
    return this.server.canUndo;
  }
  get canRedo(): boolean {
    return this.server.canRedo;
  }
  outline(): Outline {
    return this.local.outline();
  }
  /** Each outline entry's depth below <body> (the local draft's `outlineDepths()`). */
  outlineDepths(): readonly number[] {
    return this.local.outlineDepths();
  }
  html(): string {
    return this.local.html();
  }
  /**
   * The local draft's elements, held by handle. A reload (after a save, or when the server's
   * draft differs) opens a new local draft: its view is then another object, and handles of the
   * old one no longer name elements of this draft.
   */
  get elements(): ElementView {
    return this.local.elements;
  }

  /**
   * Applies an operation here, then on the server. `shown` hears of the local result at once (a
   * screen shows it without waiting for the server); should the server's answer differ, or the
   * request fail, the draft reloads the server's, and the caller's outcome says so.
   */
  async apply(
    operation: Operation,
    shown?: (result: OperationResult) => void,
  ): Promise<Outcome<OperationResult>> {
    const ready = await this.ensureFresh();
    if (!ready.ok) return ready;
    const local = this.local.apply(operation);
    if (!local.ok) return fail({ kind: 'refused', errors: local.errors });
    shown?.(local.result);
    const sent = await attempt(() =>
      this.api.applyOperation(this.page.id, { draft_token: this.token, operation }),
    );
    if (!sent.ok) {
      await this.reload();
      return sent;
    }
    const answer = sent.value;
    this.take(answer);
    if (!sameResult(local.result, answer.result)) await this.reload();
    return succeed(answer.result);
  }

  undo(shown?: (result: OperationResult) => void): Promise<Outcome<OperationResult>> {
    return this.step('undo', shown);
  }

  redo(shown?: (result: OperationResult) => void): Promise<Outcome<OperationResult>> {
    return this.step('redo', shown);
  }

  /** The checks the server runs at save, on this draft's HTML in the given saved folder. */
  validate(folder: Folder): CheckReport {
    return validateBeforeSave({
      folder,
      file: this.page.file,
      html: this.local.html(),
      memo: this.memo,
    });
  }

  /**
   * Saves after the local checks pass: when they fail, nothing is sent and the report comes back
   * as a `checks` failure with `local: true`; the server's 422 comes back the same way, `local:
   * false`. After a save the draft goes on from the new base, so it is reloaded.
   */
  async save(options: { folder: Folder; commitId?: string }): Promise<Outcome<Saved>> {
    const ready = await this.ensureFresh();
    if (!ready.ok) return ready;
    const report = this.validate(options.folder);
    if (blocksSave(report)) return fail({ kind: 'checks', local: true, report });
    const commitId = options.commitId ?? randomUuid();
    const sent = await attempt(() =>
      this.api.save(this.page.id, { draft_token: this.token, commit_id: commitId }),
    );
    if (!sent.ok) {
      const { failure } = sent;
      if (failure.kind === 'http' && failure.status === 422 && 'violations' in failure.problem) {
        const { checks, violations } = failure.problem as unknown as CheckReport;
        return fail({ kind: 'checks', local: false, report: { checks, violations } });
      }
      return sent;
    }
    const saved = sent.value;
    this.baseRevisionValue = saved.revision;
    await this.reload();
    return succeed(saved);
  }

  /** Replaces the local copy with the server's draft (its HTML and newest token). */
  async reload(): Promise<Outcome<void>> {
    const got = await attempt(() => this.api.openDraft(this.page.id));
    if (!got.ok) {
      this.stale = true;
      return got;
    }
    const answer = got.value;
    const opened = Draft.open(answer.html);
    if (!opened.ok) {
      this.stale = true;
      return fail({ kind: 'refused', errors: opened.errors });
    }
    this.local = opened.draft;
    this.token = answer.draft_token;
    this.baseRevisionValue = answer.base_revision;
    this.server = { canUndo: answer.can_undo, canRedo: answer.can_redo };
    this.stale = false;
    return succeed(undefined);
  }

  private async ensureFresh(): Promise<Outcome<void>> {
    return this.stale ? this.reload() : succeed(undefined);
  }

  /**
   * Undo or redo: here first when the local history has that change (`shown` hears of it at
   * once), then on the server; a local history without it (a draft with changes from before this
   * page opened it) or a different answer reloads the server's draft.
   */
  private async step(
    direction: 'undo' | 'redo',
    shown?: (result: OperationResult) => void,
  ): Promise<Outcome<OperationResult>> {
    const ready = await this.ensureFresh();
    if (!ready.ok) return ready;
    const able = direction === 'undo' ? this.local.canUndo : this.local.canRedo;
    const local = able ? (direction === 'undo' ? this.local.undo() : this.local.redo()) : null;
    if (local?.ok) shown?.(local.result);
    const sent = await attempt(() =>
      direction === 'undo' ? this.api.undoDraft(this.page.id) : this.api.redoDraft(this.page.id),
    );
    if (!sent.ok) {
      if (local) await this.reload();
      return sent;
    }
    const answer = sent.value;
    this.take(answer);
    if (!local?.ok || !sameResult(local.result, answer.result)) await this.reload();
    return succeed(answer.result);
  }

  private take(answer: OperationAnswer): void {
    this.token = answer.draft_token;
    this.server = { canUndo: answer.can_undo, canRedo: answer.can_redo };
  }
}

function sameResult(a: OperationResult, b: OperationResult): boolean {
  return sameList(a.nodes, b.nodes) && sameList(a.ids, b.ids);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
