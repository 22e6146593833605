import type { Failure } from '../../result.js';
import { LockKeeper } from '../editor-lock.js';
import type { LockState } from '../editor-lock.js';
import { library } from '../library.js';
import { failureText } from '../views.js';
import type { EditorScreen, StaleDraft } from './screen.js';
import { LiveView } from './live.js';
import { sayFailure } from './words.js';
import { clockTime, relativeTime } from '../when.js';
import { planReapply } from './reapply.js';

const CHECK_AFTER_MS = 350;
const VIEWER_LINE = 'Read-only: your role in this project is viewer.';

/**
 * The editor's life: the lock taken and kept, the draft opened while it is held, the saved page
 * (and the holder's live changes) while it is not, the local checks as the person edits, saving.
 */
export class EditorLifecycle {
  private lock: LockKeeper | null = null;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  private live: LiveView | null = null;

  constructor(private readonly screen: EditorScreen) {
    screen.save = () => this.save();
    screen.actions.onChange = () => this.scheduleChecks();
    screen.actions.onLockLost = () => void this.lock?.renew();
  }

  async start(): Promise<void> {
    const { setup } = this.screen;
    const label = `${setup.accountName} on the editing screen`;
    this.lock = new LockKeeper(setup.client, setup.projectId, label, (state) => this.onLock(state));
    addEventListener('beforeunload', (event) => {
      if (this.screen.model.dirty.peek() && !this.screen.model.saving.peek())
        event.preventDefault();
    });
    // A viewer cannot take the lock: asking would only be refused (and logged by the browser).
    if (setup.role === 'viewer') await this.onLock({ kind: 'viewer' });
    else await this.lock.start();
  }

  /** The saved folder (the local checks judge the draft in it): read again only when newer. */
  private async freshFolder(): Promise<void> {
    const { model, setup } = this.screen;
    const lib = library();
    const project = await lib.attempt(() => setup.client.v1.getProject(setup.projectId));
    if (!project.ok) return model.say(failureText(project.failure), 'error', 'toolbar');
    if (project.value.revision === model.folderRevision.peek() && model.folder.peek()) return;
    const got = await lib.attempt(() => setup.client.v1.downloadFolder(setup.projectId));
    if (!got.ok) return model.say(failureText(got.failure), 'error', 'toolbar');
    model.folder.value = lib.readSavedFolder(got.value.bytes).folder;
    model.folderRevision.value = project.value.revision;
  }

  private async onLock(state: LockState): Promise<void> {
    const { model, setup } = this.screen;
    model.lock.value = state;
    this.screen.takeOver.value = null;
    if (state.kind === 'held') {
      this.live?.close();
      this.live = null;
      this.screen.lockLine.value =
        'You are editing this page; others see it read-only, with your changes as you make them.';
      if (!model.draft.peek()) await this.openDraft();
      return;
    }
    model.draft.value = null;
    if (state.kind === 'other') {
      const { holder, label } = state.lock;
      this.screen.lockLine.value = `Read-only: ${holder.name} (${label}) is editing this project.`;
      model.readOnly.value = null;
      void this.describeHolder();
    } else if (state.kind === 'viewer') {
      this.screen.lockLine.value = VIEWER_LINE;
    } else {
      this.screen.lockLine.value = this.refusedLine(state.failure);
      if (state.failure.kind === 'http' && state.failure.status === 401) return;
    }
    await this.freshFolder();
    this.showSaved();
    this.live ??= new LiveView(this.screen, {
      lockChanged: (free, leftUnsaved) => {
        this.screen.takeOver.value = null;
        if (setup.role === 'viewer') {
          // Who edits, if anyone: a viewer never asks for the lock.
          if (free) this.screen.lockLine.value = VIEWER_LINE;
          else void this.describeHolder();
          return;
        }
        if (free && leftUnsaved !== null) return this.offerTakeOver(leftUnsaved);
        this.lock?.resume();
        if (free) void this.lock?.renew();
        else void this.describeHolder();
      },
      saved: async () => {
        await this.freshFolder();
        if (!model.draft.peek()) this.showSaved();
      },
    });
    this.live.open(setup.page.id);
  }

  /**
   * A lock let go with unsaved changes is not taken by itself: their tab may be reloading and
   * take it up again with its draft. This tab's person decides.
   */
  private offerTakeOver(name: string): void {
    const { lock } = this;
    if (!lock) return;
    lock.pause();
    this.screen.lockLine.value = `Read-only: the lock is free, but ${name} left unsaved changes, which stay in their draft until they come back.`;
    this.screen.takeOver.value = () => {
      this.screen.takeOver.value = null;
      lock.resume();
      void lock.renew();
    };
  }

  /** "Ada (on the editing screen) is editing since 14:02 · 5 min ago". */
  private async describeHolder(): Promise<void> {
    const { setup } = this.screen;
    const got = await library().attempt(() => setup.client.v1.getLock(setup.projectId));
    // This tab may have taken the lock meanwhile (the event of its own take came first).
    if (!got.ok || !got.value.lock || this.lock?.holding) return;
    const { holder, label, acquired_at } = got.value.lock;
    // A browser whose clock is behind the server's would read the lock as taken in the future.
    const now = new Date();
    const since = new Date(Math.min(new Date(acquired_at).getTime(), now.getTime()));
    const then =
      setup.role === 'viewer'
        ? 'your role in this project is viewer'
        : 'the editor opens here as soon as the lock is free';
    this.screen.lockLine.value = `Read-only: ${holder.name} (${label}) is editing since ${clockTime(since)} · ${relativeTime(since, now)}. You see their changes as they make them; ${then}.`;
  }

  private refusedLine(failure: Failure): string {
    if (failure.kind === 'http' && failure.status === 401) {
      this.screen.sessionEnded.value = true;
      return '';
    }
    if (failure.kind === 'http' && failure.status === 403) return VIEWER_LINE;
    return `Read-only: ${failureText(failure)}`;
  }

  /** The saved page, read-only, while this tab does not edit. */
  private showSaved(): void {
    const { model, setup } = this.screen;
    const bytes = model.folder.peek()?.get(setup.page.file);
    if (!bytes) return;
    const opened = library().Draft.open(new TextDecoder().decode(bytes));
    if (!opened.ok) return model.say('This page cannot be shown.', 'error', 'canvas');
    model.readOnly.value = { doc: opened.draft };
    model.changed();
  }

  private async openDraft(): Promise<void> {
    const { model, setup } = this.screen;
    await this.freshFolder();
    const opened = await library().SyncedDraft.open(setup.client.v1, setup.page.id);
    if (!opened.ok) return model.say(sayFailure(opened.failure), 'error', 'toolbar');
    const draft = opened.value;
    model.readOnly.value = null;
    model.draft.value = draft;
    model.changed();
    this.scheduleChecks();
    if (setup.page.revision > draft.baseRevision && draft.canUndo)
      this.screen.stale.value = await this.staleDraft(draft.baseRevision, setup.page.revision);
  }

  private async staleDraft(base: number, current: number): Promise<StaleDraft> {
    const { setup } = this.screen;
    const history = await library().attempt(() => setup.client.v1.history(setup.projectId));
    const since = history.ok
      ? history.value.entries
          .filter((entry) => entry.revision > base && entry.revision <= current)
          .map(
            (entry) =>
              `Revision ${entry.revision}: ${entry.summary} (${entry.by.name}, ${relativeTime(new Date(entry.at), new Date())})`,
          )
      : [];
    return { base, current, since };
  }

  /** Drops the draft and opens one anew on the saved page. */
  async restart(): Promise<void> {
    const { model, setup } = this.screen;
    const dropped = await library().attempt(() => setup.client.v1.discardDraft(setup.page.id));
    if (!dropped.ok) return model.say(sayFailure(dropped.failure), 'error', 'toolbar');
    model.conflicted.value = false;
    model.problems.value = [];
    model.draft.value = null;
    this.screen.stale.value = null;
    await this.openDraft();
    model.say('Started again from the saved page.', 'ok', 'toolbar');
  }

  /**
   * Re-applies the stale draft's changes on the saved page: each operation lands on the element
   * it was made on, found again in the new revision, or is left out and named.
   */
  async reapply(): Promise<void> {
    const { model, setup } = this.screen;
    const lib = library();
    const api = setup.client.v1;
    const log = await lib.attempt(() => api.draftLog(setup.page.id));
    if (!log.ok) return model.say(sayFailure(log.failure), 'error', 'toolbar');
    const base = await lib.attempt(() => api.pageRevision(setup.page.id, log.value.base_revision));
    if (!base.ok) return model.say(sayFailure(base.failure), 'error', 'toolbar');
    await this.freshFolder();
    const bytes = model.folder.peek()?.get(setup.page.file);
    if (!bytes) return model.say('The saved page could not be read.', 'error', 'toolbar');
    const plan = planReapply(
      base.value.html,
      log.value.operations,
      new TextDecoder().decode(bytes),
    );
    const dropped = await lib.attempt(() => api.discardDraft(setup.page.id));
    if (!dropped.ok) return model.say(sayFailure(dropped.failure), 'error', 'toolbar');
    model.conflicted.value = false;
    model.draft.value = null;
    this.screen.stale.value = null;
    await this.openDraft();
    const draft = model.draft.peek();
    if (!draft) return;
    let applied = 0;
    for (const operation of plan.operations) {
      const done = await draft.apply(operation);
      if (!done.ok) break;
      applied += 1;
    }
    model.changed();
    this.scheduleChecks();
    const left = plan.skipped.map((s) => s.reason);
    const missed = plan.operations.length - applied;
    model.say(
      `Re-applied ${applied} change${applied === 1 ? '' : 's'} on the saved page.` +
        (left.length || missed
          ? ` Left out: ${[...left, ...(missed ? [`${missed} more that no longer applied`] : [])].join('; ')}.`
          : ''),
      left.length || missed ? 'info' : 'ok',
      'toolbar',
    );
  }

  /** The local checks, run shortly after the person stops changing things. */
  scheduleChecks(): void {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.runChecks(), CHECK_AFTER_MS);
  }

  private runChecks(): void {
    const { model, setup } = this.screen;
    const draft = model.draft.peek();
    const folder = model.folder.peek();
    if (!draft || !folder) return;
    // Problems of a refused save stay until the person changes something that fixes them.
    model.problemsFrom.value = 'editing';
    model.takeProblems(draft.validate(folder), setup.page.file);
  }

  async save(): Promise<void> {
    const { model, setup } = this.screen;
    // The save runs the checks itself: a pending run would only relabel what it finds.
    clearTimeout(this.checkTimer);
    const draft = model.draft.peek();
    const folder = model.folder.peek();
    if (!draft || !folder || model.saving.peek() || model.busy.peek()) return;
    if (model.conflicted.peek())
      return model.say(
        'This draft cannot be saved: someone saved the page meanwhile.',
        'error',
        'toolbar',
      );
    if (!draft.canUndo)
      return model.say('Nothing to save: no change since the saved page.', 'info', 'toolbar');
    model.saving.value = true;
    model.say('Saving…', 'info', 'toolbar');
    const saved = await draft.save({ folder });
    model.saving.value = false;
    if (!saved.ok) {
      const { failure } = saved;
      if (failure.kind === 'checks') {
        model.takeProblems(failure.report, setup.page.file);
        model.problemsFrom.value = failure.local ? 'save-local' : 'save-server';
        const count = failure.report.violations.filter((v) => v.severity === 'error').length;
        model.say(
          `Not saved: ${count} problem${count === 1 ? '' : 's'} must be fixed first; each is marked on its element.`,
          'error',
          'toolbar',
        );
        model.changed();
        return;
      }
      if (
        failure.kind === 'http' &&
        failure.status === 409 &&
        failure.problem.code === 'revision_conflict'
      ) {
        model.conflicted.value = true;
        this.screen.stale.value = await this.staleDraft(
          draft.baseRevision,
          Number(
            (failure.problem as { current_revision?: number }).current_revision ??
              draft.baseRevision + 1,
          ),
        );
      }
      model.say(sayFailure(failure), 'error', 'toolbar');
      model.changed();
      return;
    }
    await this.freshFolder();
    model.changed();
    this.runChecks();
    model.say(`Saved as revision ${saved.value.revision}.`, 'ok', 'toolbar');
  }
}
