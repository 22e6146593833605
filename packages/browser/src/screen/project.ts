import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, fill, h, onSubmit, say, ScreenError, text, time, within } from './dom.js';
import { allPages, library, screenClient } from './library.js';
import type { Client } from './library.js';
import { showMembers } from './project-members.js';
import { showConfirmations, showHistory } from './project-versions.js';
import { failureView } from './views.js';
import type { Failure } from '../result.js';

type Project = z.output<typeof v1.Project>;
type Page = z.output<typeof v1.Page>;

/** What the parts of the project page share: the client, the ids, and a way to say things. */
export interface ProjectView {
  readonly client: Client;
  readonly projectId: string;
  readonly accountId: string;
  project: Project;
  /** Re-reads everything after a change. */
  refresh(): Promise<void>;
  report(failure: Failure): void;
  status(message: string): void;
}

/** One project: summary, rename, pages, members, history, confirmations, export, delete. */
export async function startProject(): Promise<void> {
  const projectId = document.body.dataset.project;
  const accountId = document.body.dataset.account ?? '';
  if (!projectId) throw new ScreenError('missing_data', 'The page names no project.');
  const client = screenClient();
  const problems = byId('project-error');
  const view: ProjectView = {
    client,
    projectId,
    accountId,
    project: undefined as unknown as Project,
    refresh: () => load(view),
    // One outcome on show at a time, above the forms: an error replaces the last success (and
    // takes the focus, so it is read out and seen), a success replaces the last error.
    report: (failure) => {
      say(byId('project-status'), '');
      fill(problems, failureView(failure));
      problems.hidden = false;
      problems.focus();
    },
    status: (message) => {
      problems.hidden = true;
      say(byId('project-status'), message, 'ok');
    },
  };
  bindForms(view);
  await load(view);
}

async function load(view: ProjectView): Promise<void> {
  const got = await library().attempt(() => view.client.v1.getProject(view.projectId));
  if (!got.ok) {
    view.report(got.failure);
    // No such project (or not this person's): the error is all there is to show.
    const gone = got.failure.kind === 'http' && got.failure.status === 404;
    if (gone) byId('project-details').hidden = true;
    return;
  }
  view.project = got.value;
  byId('project-error').hidden = true;
  byId('project-details').hidden = false;
  showSummary(view.project);
  await Promise.all([
    showPages(view),
    showMembers(view),
    showHistory(view),
    showConfirmations(view),
  ]);
}

function showSummary(p: Project): void {
  document.title = `${p.title} · Galley`;
  byId('main').querySelector('h1')!.textContent = p.title;
  byId<HTMLInputElement>('rename-title').value = p.title;
  const rows: [string, Node | string | number][] = [
    ['Medium', `${p.medium} (${p.media.id} v${p.media.version})`],
    ['Your role', p.role],
    ['Pages', p.pages],
    ['Saved revision', p.revision],
    ['Created', time(p.created_at)],
    ['Updated', time(p.updated_at)],
    [
      'Editor',
      p.role === 'viewer'
        ? 'view only'
        : h('a', { href: within(p.editor_url) }, 'Open the page editor'),
    ],
  ];
  fill(
    byId('project-summary'),
    rows.flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]),
  );
  byId('rename-form').hidden = p.role === 'viewer';
  byId('confirm-form').hidden = p.role === 'viewer';
  byId('delete-section').hidden = !p.owner;
}

async function showPages(view: ProjectView): Promise<void> {
  const { client, projectId } = view;
  const first = await library().attempt(() => client.v1.listPages(projectId, { per_page: 200 }));
  if (!first.ok) return view.report(first.failure);
  const pages = await allPages<Page, 'pages'>(client, first.value, 'pages');
  const edit = (page: Page) =>
    view.project.role === 'viewer'
      ? ''
      : h(
          'a',
          {
            href: `/projects/${encodeURIComponent(projectId)}/edit?page=${encodeURIComponent(page.id)}`,
            'aria-label': `Edit ${page.file}`,
          },
          'Edit',
        );
  fill(
    byId('page-list'),
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['File', 'Title', 'Public URL', 'Changed in', ''].map((n) =>
            h('th', { scope: 'col' }, n),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        pages.map((page) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, page.file)),
            h('td', {}, page.title),
            h('td', {}, page.public_url),
            h('td', {}, `revision ${page.revision}`),
            h('td', {}, edit(page)),
          ),
        ),
      ),
    ),
  );
}

function bindForms(view: ProjectView): void {
  onSubmit(byId<HTMLFormElement>('rename-form'), async (data) => {
    const renamed = await library().attempt(() =>
      view.client.v1.renameProject(view.projectId, { title: text(data, 'title') }),
    );
    if (!renamed.ok) return view.report(renamed.failure);
    view.status('Renamed.');
    await view.refresh();
  });
  onSubmit(byId<HTMLFormElement>('delete-form'), async () => {
    const deleted = await library().attempt(() => view.client.v1.deleteProject(view.projectId));
    if (!deleted.ok) return view.report(deleted.failure);
    location.assign('/projects');
  });
}
