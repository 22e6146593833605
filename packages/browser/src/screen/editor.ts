import type { CheckReport, Folder, Outline, OutlineEntry, v1, Violation } from '@galley/core';
import type { z } from 'zod';
import type { Failure } from '../result.js';
import type { SyncedDraft } from '../synced-draft.js';
import { byId, fill, h, say, ScreenError } from './dom.js';
import { clearMarks, markRefusal, operationOf, useSelection } from './editor-forms.js';
import { LockKeeper } from './editor-lock.js';
import type { LockState } from './editor-lock.js';
import { entryOf, renderOutline } from './editor-outline.js';
import { allPages, library, screenClient } from './library.js';
import type { Client } from './library.js';
import { claimEditorClient } from './session.js';
import { failureLine, failureText, violationItem } from './views.js';

type Page = z.output<typeof v1.Page>;

/** What the outline and the preview show: the draft, or the saved page while read-only. */
interface Shown {
  readonly outline: Outline;
  /** Each entry's depth below <body>, from the draft engine (the page is never parsed here). */
  readonly depths: readonly number[];
  readonly html: string;
}

/** What the page editor knows; `draft` is set only while this tab holds the lock. */
interface Editor {
  readonly client: Client;
  readonly projectId: string;
  readonly page: Page;
  /** The draft's toolbar and the operation forms: enabled only while this tab holds the lock. */
  readonly controls: readonly HTMLFieldSetElement[];
  readonly result: HTMLElement;
  folder: Folder | null;
  /** The saved revision `folder` was read at. */
  folderRevision: number | null;
  draft: SyncedDraft | null;
  /** The saved page, shown while another client edits. */
  saved: Shown | null;
  selected: number | null;
  problems: Pick<CheckReport, 'checks' | 'violations'> | null;
  /** A save request is on its way: Save stays disabled, so a double-click saves once. */
  saving: boolean;
  /** Someone saved the page since this draft's base: it can only be started again. */
  conflicted: boolean;
  previewed: string | null;
  lock: LockKeeper | null;
}

/**
 * The page editor: takes the lock, opens a draft kept in step with the server's, and runs the
 * save-time checks locally before it sends a save. Read-only while another client holds the lock.
 */
export async function startEditor(): Promise<void> {
  const { project: projectId, page: wanted, accountName } = document.body.dataset;
  if (!projectId) throw new ScreenError('missing_data', 'The page names no project.');
  await claimEditorClient();
  const client = screenClient();
  const result = byId('edit-result');
  const lib = library();
  const project = await lib.attempt(() => client.v1.getProject(projectId));
  if (!project.ok) return stop(failureLine(project.failure));
  const first = await lib.attempt(() => client.v1.listPages(projectId, { per_page: 200 }));
  if (!first.ok) return stop(failureLine(first.failure));
  const pages = await allPages<Page, 'pages'>(client, first.value, 'pages');
  const page = wanted ? pages.find((p) => p.id === wanted) : pages[0];
  if (!page) {
    return stop(wanted ? 'This project has no such page.' : 'This project has no pages.');
  }
  nameTheEditor(page, project.value.title);
  choosePage(pages, page);
  // The preview document sits at the page's own path, so its relative links reach its files.
  const previewForm = byId<HTMLFormElement>('preview-form');
  previewForm.action = `${previewForm.dataset.base}${page.file.split('/').map(encodeURIComponent).join('/')}`;
  const editor: Editor = {
    client,
    projectId,
    page,
    controls: [...document.querySelectorAll<HTMLFieldSetElement>('fieldset.edit-controls')],
    result,
    folder: null,
    folderRevision: null,
    draft: null,
    saved: null,
    selected: null,
    problems: null,
    saving: false,
    conflicted: false,
    previewed: null,
    lock: null,
  };
  bindControls(editor);
  const label = `${accountName ?? 'Someone'} on the editing screen`;
  editor.lock = new LockKeeper(client, projectId, label, (state) => onLock(editor, state));
  await editor.lock.start();
}

/**
 * The editor cannot open at all (no such project, no pages, no session): said once, where the
 * lock's state would be, and nothing else is tried or shown.
 */
function stop(message: Node | string): void {
  const status = byId('lock-status');
  status.className = 'lock other';
  fill(status, message);
  byId('editor-body').hidden = true;
}

/** Several editor tabs can be told apart: the title and heading name the page and project. */
function nameTheEditor(page: Page, projectTitle: string): void {
  document.title = `${page.file} in ${projectTitle} · Galley`;
  byId('main').querySelector('h1')!.textContent = `Editing ${page.file} in ${projectTitle}`;
}

function choosePage(pages: readonly Page[], current: Page): void {
  const select = byId<HTMLSelectElement>('page-select');
  fill(
    select,
    pages.map((p) =>
      h('option', { value: p.id, selected: p.id === current.id }, `${p.file} — ${p.title}`),
    ),
  );
  select.addEventListener('change', () => {
    const url = new URL(location.href);
    url.searchParams.set('page', select.value);
    location.assign(url.toString());
  });
}

/**
 * The project's saved folder, which the local checks judge the draft against and the read-only
 * view shows: read again only when the project has a newer saved revision.
 */
async function freshFolder(editor: Editor): Promise<void> {
  const lib = library();
  const project = await lib.attempt(() => editor.client.v1.getProject(editor.projectId));
  if (!project.ok) return say(editor.result, failureText(project.failure), 'error');
  if (project.value.revision === editor.folderRevision && editor.folder) return;
  const got = await lib.attempt(() => editor.client.v1.downloadFolder(editor.projectId));
  if (!got.ok) return say(editor.result, failureText(got.failure), 'error');
  editor.folder = lib.readSavedFolder(got.value.bytes).folder;
  editor.folderRevision = project.value.revision;
}

async function onLock(editor: Editor, state: LockState): Promise<void> {
  const status = byId('lock-status');
  status.className = `lock ${state.kind === 'held' ? 'held' : 'other'}`;
  if (state.kind === 'held') {
    status.textContent = 'You are editing this page; other clients see it read-only.';
    if (!editor.draft) {
      await freshFolder(editor);
      const opened = await library().SyncedDraft.open(editor.client.v1, editor.page.id);
      if (!opened.ok) return say(editor.result, failureText(opened.failure), 'error');
      editor.draft = opened.value;
    }
    for (const fieldset of editor.controls) fieldset.disabled = false;
  } else {
    editor.draft = null;
    for (const fieldset of editor.controls) fieldset.disabled = true;
    fill(status, state.kind === 'other' ? heldBy(state.lock) : refusedView(state.failure));
    // An ended session: the page is on its way to the login, there is nothing more to read.
    if (state.kind === 'refused' && state.failure.kind === 'http' && state.failure.status === 401)
      return;
    await freshFolder(editor);
    showSaved(editor);
  }
  render(editor);
}

function heldBy(lock: { label: string; holder: { name: string }; expires_at: string }): string {
  return `Read-only: “${lock.label}” (${lock.holder.name}) is editing this project. The editor opens here as soon as the lock is free.`;
}

function refusedView(failure: Failure): Node | string {
  if (failure.kind === 'http' && failure.status === 401) return failureLine(failure);
  if (failure.kind === 'http' && failure.status === 403)
    return 'Read-only: your role in this project is viewer.';
  return `Read-only: ${failureText(failure)}`;
}

/** The saved page (from the saved folder) while this tab cannot edit. */
function showSaved(editor: Editor): void {
  const bytes = editor.folder?.get(editor.page.file);
  if (!bytes) return;
  const html = new TextDecoder().decode(bytes);
  const opened = library().Draft.open(html);
  editor.saved = opened.ok
    ? { outline: opened.draft.outline(), depths: opened.draft.outlineDepths(), html }
    : { outline: [], depths: [], html };
}

function current(editor: Editor): Shown | null {
  const { draft } = editor;
  if (!draft) return editor.saved;
  return { outline: draft.outline(), depths: draft.outlineDepths(), html: draft.html() };
}

function render(editor: Editor): void {
  const view = current(editor);
  byId<HTMLButtonElement>('draft-undo').disabled = !editor.draft?.canUndo;
  byId<HTMLButtonElement>('draft-redo').disabled = !editor.draft?.canRedo;
  showSaveState(editor);
  if (!view) return;
  const onPage = (editor.problems?.violations ?? []).filter((v) => v.path === editor.page.file);
  renderOutline(byId('outline'), {
    outline: view.outline,
    depths: view.depths,
    problems: onPage,
    selected: editor.selected,
    onSelect: (entry) => select(editor, entry),
  });
  showProblems(editor, view.outline);
  preview(editor, view.html);
}

/**
 * Save is offered only when it would make a new revision worth having: not while a save is on its
 * way (a double-click saves once), and not when no change is in effect since the draft's base
 * (the server's `can_undo`), which would only add an empty revision to the history.
 */
function showSaveState(editor: Editor): void {
  const button = byId<HTMLButtonElement>('save-page');
  const why = editor.saving
    ? 'Saving…'
    : editor.conflicted
      ? 'This draft cannot be saved: start again from the saved page.'
      : editor.draft && !editor.draft.canUndo
        ? 'Nothing to save: no change since the saved page.'
        : '';
  button.disabled = why !== '';
  button.title = why;
  byId('save-state').textContent = why;
}

function select(editor: Editor, entry: OutlineEntry): void {
  editor.selected = entry.node;
  useSelection(byId('edit-controls'), entry);
  for (const button of byId('outline').querySelectorAll('button[data-node]'))
    button.setAttribute(
      'aria-pressed',
      String(button.getAttribute('data-node') === String(entry.node)),
    );
}

/**
 * Posts the HTML to the preview route, whose answer the sandboxed frame shows. Each post goes into
 * a new frame that replaces the old one: a new frame's first load replaces its blank start in the
 * session history, where a post into the same frame would add an entry, and Back would then step
 * the frame (re-posting and failing) instead of leaving the editor.
 */
function preview(editor: Editor, html: string): void {
  if (editor.previewed === html) return;
  editor.previewed = html;
  const frame = byId<HTMLIFrameElement>('preview-frame');
  frame.replaceWith(frame.cloneNode(false));
  const form = byId<HTMLFormElement>('preview-form');
  (form.elements.namedItem('html') as HTMLInputElement).value = html;
  form.submit();
}

function showProblems(editor: Editor, outline: Outline): void {
  const section = byId('violations');
  const report = editor.problems;
  section.hidden = !report || report.violations.length === 0;
  if (!report) return;
  fill(
    byId('violation-list'),
    report.violations.map((v: Violation) => {
      const entry = v.path === editor.page.file ? entryOf(outline, v.element) : undefined;
      const show = entry
        ? h(
            'button',
            { type: 'button', class: 'show-element', 'data-node': entry.node },
            `Show @${entry.node}`,
          )
        : undefined;
      show?.addEventListener('click', () => {
        byId('outline')
          .querySelector<HTMLButtonElement>(`button[data-node="${entry!.node}"]`)
          ?.focus();
      });
      return violationItem(v, show ? h('span', {}, ' ', show) : undefined);
    }),
  );
}

function bindControls(editor: Editor): void {
  for (const form of byId('edit-controls').querySelectorAll<HTMLFormElement>('form.op-form')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void applyForm(editor, form);
    });
  }
  byId('draft-undo').addEventListener('click', () => void step(editor, 'undo'));
  byId('draft-redo').addEventListener('click', () => void step(editor, 'redo'));
  byId('save-page').addEventListener('click', () => void save(editor));
  byId('restart-draft').addEventListener('click', () => void restart(editor));
}

/** The page was saved elsewhere since this draft's base: the draft can never be saved. */
function isRevisionConflict(failure: Failure): boolean {
  return (
    failure.kind === 'http' &&
    failure.status === 409 &&
    failure.problem.code === 'revision_conflict'
  );
}

/** The draft was changed by another client since this tab last read it (another tab, say). */
function isStaleDraft(failure: Failure): boolean {
  return (
    failure.kind === 'http' &&
    failure.status === 409 &&
    failure.problem.code === 'stale_draft_token'
  );
}

/** The synced draft has reloaded the server's newer draft: show it, and that the change was lost. */
function overtaken(editor: Editor): void {
  say(
    editor.result,
    'Your change was not applied: this draft was changed elsewhere (another tab or client) meanwhile. The editor now shows the draft as it is; make the change again if it is still needed.',
    'error',
  );
  render(editor);
}

/** After a revision conflict: say so, and offer to discard the draft and open one anew. */
function offerRestart(editor: Editor, failure: Failure): void {
  say(
    editor.result,
    `${failureText(failure)} Someone saved this page meanwhile, so this draft cannot be saved.`,
    'error',
  );
  byId('restart-draft').hidden = false;
  editor.conflicted = true;
  showSaveState(editor);
}

async function restart(editor: Editor): Promise<void> {
  const lib = library();
  const discarded = await lib.attempt(() => editor.client.v1.discardDraft(editor.page.id));
  if (!discarded.ok) return failed(editor, discarded.failure);
  byId('restart-draft').hidden = true;
  editor.conflicted = false;
  editor.draft = null;
  editor.problems = null;
  await onLock(editor, { kind: 'held' });
  say(editor.result, 'Started again from the saved page.', 'ok');
}

async function applyForm(editor: Editor, form: HTMLFormElement): Promise<void> {
  const operation = operationOf(form);
  if (!editor.draft || !operation) return;
  const applied = await editor.draft.apply(operation);
  if (!applied.ok) {
    if (applied.failure.kind === 'refused') markRefusal(form, applied.failure.errors);
    if (isStaleDraft(applied.failure)) return overtaken(editor);
    return failed(editor, applied.failure);
  }
  const nodes = applied.value.nodes;
  editor.selected = nodes.length ? Number(nodes[0]!.slice(1)) : editor.selected;
  changed(editor, `Done (${operation.kind}): ${nodes.join(', ') || 'nothing new to show'}.`);
}

async function step(editor: Editor, direction: 'undo' | 'redo'): Promise<void> {
  if (!editor.draft) return;
  const moved = await (direction === 'undo' ? editor.draft.undo() : editor.draft.redo());
  if (!moved.ok) return failed(editor, moved.failure);
  changed(editor, direction === 'undo' ? 'Undone.' : 'Redone.');
}

/**
 * After a change: re-run the local checks if problems are on show, so fixes show at once; the
 * fields an earlier refusal marked are no longer at fault.
 */
function changed(editor: Editor, message: string): void {
  clearMarks(document);
  if (editor.problems && editor.draft && editor.folder) {
    const report = editor.draft.validate(editor.folder);
    editor.problems = library().blocksSave(report) ? report : null;
  }
  say(editor.result, message, 'ok');
  render(editor);
}

async function save(editor: Editor): Promise<void> {
  if (!editor.draft || !editor.folder || editor.saving) return;
  editor.saving = true;
  showSaveState(editor);
  const saved = await editor.draft.save({ folder: editor.folder });
  editor.saving = false;
  showSaveState(editor);
  if (!saved.ok) {
    if (saved.failure.kind === 'checks') {
      editor.problems = saved.failure.report;
      byId('violations-source').textContent = saved.failure.local
        ? 'Found by the checks in this browser before anything was sent.'
        : 'The service refused the save (422).';
      render(editor);
      byId('violations').focus();
    }
    if (isRevisionConflict(saved.failure)) return offerRestart(editor, saved.failure);
    return failed(editor, saved.failure);
  }
  editor.problems = null;
  await freshFolder(editor);
  say(editor.result, `Saved as revision ${saved.value.revision}.`, 'ok');
  render(editor);
}

function failed(editor: Editor, failure: Failure): void {
  const prefix = failure.kind === 'refused' ? 'Refused here, nothing was sent: ' : '';
  say(editor.result, prefix + failureText(failure), 'error');
  // Another client took the lock: find out who, and turn read-only.
  if (failure.kind === 'http' && failure.status === 423) void editor.lock?.renew();
}
