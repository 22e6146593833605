import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, fill, h, onSubmit, text, time, within } from './dom.js';
import { library } from './library.js';
import type { ProjectView } from './project.js';

type History = z.output<typeof v1.History>;
type Confirmation = z.output<typeof v1.Confirmation>;

const bound = new WeakSet<Element>();

/** Saved revisions, newest first, with undo and redo of the whole project's last change. */
export async function showHistory(view: ProjectView): Promise<void> {
  const got = await library().attempt(() =>
    view.client.v1.history(view.projectId, { per_page: 50 }),
  );
  if (!got.ok) return view.report(got.failure);
  const history: History = got.value;
  const writable = view.project.role !== 'viewer';
  for (const direction of ['undo', 'redo'] as const) {
    const button = byId<HTMLButtonElement>(`history-${direction}`);
    button.disabled = !writable || !(direction === 'undo' ? history.can_undo : history.can_redo);
    button.dataset.revision = String(history.revision);
    if (!bound.has(button)) {
      bound.add(button);
      button.addEventListener(
        'click',
        () => void moveHistory(view, direction, Number(button.dataset.revision)),
      );
    }
  }
  fill(
    byId('history-list'),
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, 'History'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Revision', 'Change', 'Summary', 'By', 'At'].map((n) => h('th', { scope: 'col' }, n)),
        ),
      ),
      h(
        'tbody',
        {},
        history.entries.map((e) =>
          h(
            'tr',
            {},
            h('td', {}, e.revision),
            h('td', {}, e.kind),
            h('td', {}, e.summary, e.page ? ` (${e.page.file})` : ''),
            h('td', {}, e.by.name),
            h('td', {}, time(e.at)),
          ),
        ),
      ),
    ),
  );
}

async function moveHistory(
  view: ProjectView,
  direction: 'undo' | 'redo',
  revision: number,
): Promise<void> {
  const moved = await library().attempt(() =>
    view.client.v1.moveHistory(view.projectId, { direction, revision }),
  );
  if (!moved.ok) return view.report(moved.failure);
  view.status(direction === 'undo' ? 'The last change was undone.' : 'The change was redone.');
  await view.refresh();
}

/**
 * Confirmed versions with their SHA-256 and download links, the "unconfirmed changes" badge, and
 * the confirm form (a person's act: only the screen's session may do it).
 */
export async function showConfirmations(view: ProjectView): Promise<void> {
  const form = byId<HTMLFormElement>('confirm-form');
  byId('confirm-button').textContent = `Confirm revision ${view.project.revision}`;
  if (!bound.has(form)) {
    bound.add(form);
    onSubmit(form, async (data) => {
      const note = text(data, 'note').trim();
      const made = await library().attempt(() =>
        view.client.v1.confirm(view.projectId, note ? { note } : {}),
      );
      if (!made.ok) return view.report(made.failure);
      form.reset();
      view.status(`Confirmed as version ${made.value.version}.`);
      await view.refresh();
    });
  }
  const got = await library().attempt(() =>
    view.client.v1.listConfirmations(view.projectId, { per_page: 50 }),
  );
  if (!got.ok) return view.report(got.failure);
  const list: Confirmation[] = got.value.confirmations;
  showBadge(list[0]);
  fill(
    byId('confirmation-list'),
    list.length === 0
      ? h('p', {}, 'No version has been confirmed yet.')
      : h(
          'table',
          {},
          h('caption', { class: 'sr-only' }, 'Confirmed versions'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['Version', 'Revision', 'SHA-256', 'Note', 'Confirmed', 'Download'].map((n) =>
                h('th', { scope: 'col' }, n),
              ),
            ),
          ),
          h('tbody', {}, list.map(confirmationRow)),
        ),
  );
}

function confirmationRow(c: Confirmation): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-version': c.version },
    h('td', {}, c.version),
    h('td', {}, c.revision),
    h('td', {}, h('code', { class: 'sha' }, c.sha256)),
    h('td', {}, c.note ?? ''),
    h('td', {}, time(c.confirmed_at), ` by ${c.confirmed_by.name}`),
    h(
      'td',
      {},
      h(
        'a',
        {
          href: within(c.download_url),
          download: `version-${c.version}.zip`,
          'aria-label': `Download version ${c.version}`,
        },
        'ZIP',
      ),
    ),
  );
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
