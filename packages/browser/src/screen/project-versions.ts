import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, changedIn, dataTable, fill, h, text, time, within } from './dom.js';
import type { Row } from './dom.js';
import { ask } from './dialog.js';
import { allPages, library } from './library.js';
import type { ProjectView } from './project-view.js';

type History = z.output<typeof v1.History>;
type HistoryEntry = History['entries'][number];
type Confirmation = z.output<typeof v1.Confirmation>;
type Direction = 'undo' | 'redo';

const bound = new WeakSet<Element>();

/**
 * What the page knows of the history and confirmations, and whether one of their requests is on
 * its way: buttons are set from this alone, so a double click acts once.
 */
const state = {
  busy: false,
  canUndo: false,
  canRedo: false,
  writable: false,
  revision: 0,
  confirmed: undefined as Confirmation | undefined,
  known: false,
};

function showButtons(): void {
  const off = state.busy || !state.writable;
  byId<HTMLButtonElement>('history-undo').disabled = off || !state.canUndo;
  byId<HTMLButtonElement>('history-redo').disabled = off || !state.canRedo;
  const confirmed = state.confirmed?.revision === state.revision ? state.confirmed : undefined;
  const button = byId<HTMLButtonElement>('confirm-button');
  button.textContent = `Confirm revision ${state.revision}`;
  button.disabled = off || !state.known || confirmed !== undefined;
  byId('confirm-state').textContent = confirmed
    ? `Revision ${confirmed.revision} is confirmed as version ${confirmed.version}: nothing to confirm until it changes.`
    : '';
}

/**
 * Runs one request of this part at a time, with its buttons disabled meanwhile; undefined when
 * another is on its way.
 */
async function singleFlight<T>(act: () => Promise<T>): Promise<T | undefined> {
  if (state.busy) return undefined;
  state.busy = true;
  showButtons();
  try {
    return await act();
  } finally {
    state.busy = false;
    showButtons();
  }
}

/** Saved revisions, newest first, with undo and redo of the whole project's last change. */
export async function showHistory(view: ProjectView): Promise<void> {
  const got = await library().attempt(() =>
    view.client.v1.history(view.projectId, { per_page: 50 }),
  );
  if (!got.ok) return view.report(got.failure);
  const history: History = got.value;
  Object.assign(state, {
    canUndo: history.can_undo,
    canRedo: history.can_redo,
    writable: view.project.role !== 'viewer',
    revision: view.project.revision,
  });
  showButtons();
  for (const direction of ['undo', 'redo'] as const) {
    const button = byId<HTMLButtonElement>(`history-${direction}`);
    if (bound.has(button)) continue;
    bound.add(button);
    button.addEventListener('click', () => void moveHistory(view, direction, button));
  }
  const region = byId('history-list');
  if (!changedIn(region, history.entries)) return;
  fill(
    region,
    dataTable({
      caption: 'History',
      columns: ['Revision', 'Change', 'Summary', 'By', 'At'],
      rows: history.entries.map((e): Row => [
        {},
        [e.revision, e.kind, [e.summary, e.page ? ` (${e.page.file})` : ''], e.by.name, time(e.at)],
      ]),
    }),
  );
}

/**
 * The entry that an undo would take back (or a redo bring back): the history replayed from its
 * start, as the service keeps its two stacks. A new change empties the redo stack; creating the
 * project is no step.
 */
export function nextMove(
  entries: readonly HistoryEntry[],
  direction: Direction,
): HistoryEntry | undefined {
  const done: HistoryEntry[] = [];
  const undone: HistoryEntry[] = [];
  for (const entry of [...entries].reverse()) {
    const from = entry.kind === 'undo' ? done : entry.kind === 'redo' ? undone : null;
    if (from) {
      const moved = from.pop();
      if (moved) (from === done ? undone : done).push(moved);
    } else if (entry.kind !== 'create') {
      done.push(entry);
      undone.length = 0;
    }
  }
  return (direction === 'undo' ? done : undone).at(-1);
}

function moveQuestion(direction: Direction, entry: HistoryEntry | undefined) {
  const verb = direction === 'undo' ? 'Undo' : 'Redo';
  if (!entry)
    return {
      title: `${verb} the last change?`,
      body: [
        h(
          'p',
          {},
          'The project’s saved history moves one step; the move is saved as a new revision.',
        ),
      ],
      action: `${verb} the last change`,
    };
  const what = h(
    'p',
    { class: 'entry' },
    `Revision ${entry.revision}: “${entry.summary}”${entry.page ? ` (${entry.page.file})` : ''}`,
    h('br'),
    `${entry.kind}, by ${entry.by.name}, `,
    time(entry.at, { clock: true }),
  );
  const effect =
    direction === 'undo'
      ? 'The project goes back to how it was before this change. The undo is saved as a new revision, and Redo brings the change back.'
      : 'The project gets this change back. The redo is saved as a new revision.';
  return {
    title: `${verb} revision ${entry.revision}?`,
    body: [what, h('p', {}, effect)],
    action: `${verb} revision ${entry.revision}`,
  };
}

async function moveHistory(
  view: ProjectView,
  direction: Direction,
  trigger: HTMLButtonElement,
): Promise<void> {
  // The whole history, read now: the dialog names the change the move is about.
  const read = await singleFlight(() =>
    library().attempt(async () => {
      const first = await view.client.v1.history(view.projectId, { per_page: 200 });
      const entries = await allPages<HistoryEntry, 'entries'>(view.client, first, 'entries');
      return { revision: first.revision, entries };
    }),
  );
  if (!read) return;
  if (!read.ok) return view.report(read.failure);
  const entry = nextMove(read.value.entries, direction);
  if (!(await ask(moveQuestion(direction, entry), trigger))) return;
  await singleFlight(async () => {
    const moved = await library().attempt(() =>
      view.client.v1.moveHistory(view.projectId, { direction, revision: read.value.revision }),
    );
    if (!moved.ok) return view.report(moved.failure);
    const said = entry ? `revision ${entry.revision}` : 'the last change';
    view.status(direction === 'undo' ? `Undid ${said}.` : `Redid ${said}.`);
    await view.refresh();
  });
}

/**
 * Confirmed versions with their SHA-256 and download links, the "unconfirmed changes" badge, and
 * the confirm form (a person's act: only the screen's session may do it). Confirm is off while a
 * confirmation is on its way and once the current revision is confirmed.
 */
export async function showConfirmations(view: ProjectView): Promise<void> {
  const form = byId<HTMLFormElement>('confirm-form');
  Object.assign(state, {
    revision: view.project.revision,
    writable: view.project.role !== 'viewer',
  });
  if (!bound.has(form)) {
    bound.add(form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const note = text(new FormData(form), 'note').trim();
      void singleFlight(() => confirm(view, form, note));
    });
  }
  const got = await library().attempt(() =>
    view.client.v1.listConfirmations(view.projectId, { per_page: 50 }),
  );
  if (!got.ok) return view.report(got.failure);
  const list: Confirmation[] = got.value.confirmations;
  Object.assign(state, { confirmed: list[0], known: true });
  showButtons();
  showBadge(list[0]);
  const region = byId('confirmation-list');
  if (!changedIn(region, list)) return;
  fill(
    region,
    list.length === 0
      ? h('p', {}, 'No version has been confirmed yet.')
      : dataTable({
          caption: 'Confirmed versions',
          columns: ['Version', 'Revision', 'SHA-256', 'Note', 'Confirmed', 'Download'],
          rows: list.map(confirmationRow),
        }),
  );
}

async function confirm(view: ProjectView, form: HTMLFormElement, note: string): Promise<void> {
  const made = await library().attempt(() =>
    view.client.v1.confirm(view.projectId, note ? { note } : {}),
  );
  if (!made.ok) return view.report(made.failure);
  form.reset();
  state.confirmed = made.value;
  view.status(`Confirmed as version ${made.value.version}.`);
  await view.refresh();
}

function confirmationRow(c: Confirmation): Row {
  return [
    { 'data-version': c.version },
    [
      c.version,
      c.revision,
      h('code', { class: 'sha' }, c.sha256),
      c.note ?? '',
      [time(c.confirmed_at), ` by ${c.confirmed_by.name}`],
      h(
        'a',
        {
          href: within(c.download_url),
          download: `version-${c.version}.zip`,
          'aria-label': `Download version ${c.version} as ZIP`,
        },
        'ZIP',
      ),
    ],
  ];
}

function showBadge(latest: Confirmation | undefined): void {
  const badge = !latest
    ? h('span', { class: 'badge', id: 'unconfirmed-badge' }, 'Never confirmed')
    : latest.has_unconfirmed_changes
      ? h(
          'span',
          { class: 'badge', id: 'unconfirmed-badge' },
          `Unconfirmed changes since version ${latest.version}`,
        )
      : h('span', { class: 'badge ok' }, `Confirmed: version ${latest.version} is current`);
  fill(byId('project-badges'), badge);
}
