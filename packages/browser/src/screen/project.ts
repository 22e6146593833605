import type { v1 } from '@galley/core';
import type { z } from 'zod';
import {
  byId,
  changedIn,
  dataTable,
  fill,
  h,
  onSubmit,
  say,
  ScreenError,
  text,
  time,
  within,
} from './dom.js';
import type { Child, Row } from './dom.js';
import { ask } from './dialog.js';
import { allPages, library, screenClient } from './library.js';
import { showMembers } from './project-members.js';
import { showConfirmations, showHistory } from './project-versions.js';
import { EDITING_POLL_MS, showLock, unsavedMark } from './project-editing.js';
import { followProject } from './project-live.js';
import { failureView } from './views.js';
import { keepTimesCurrent } from './when.js';
import type { Project, ProjectView } from './project-view.js';

type Page = z.output<typeof v1.Page>;

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
      delete problems.dataset.read;
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
  keepTimesCurrent();
  await load(view);
  followProject(view);
  // The pages' unsaved changes (and who is editing, should an event be missed) while it is open.
  setInterval(() => {
    if (view.project && !byId('project-details').hidden)
      void Promise.all([showLock(view), showPages(view)]);
  }, EDITING_POLL_MS);
}

async function load(view: ProjectView): Promise<void> {
  const got = await library().attempt(() => view.client.v1.getProject(view.projectId));
  const problems = byId('project-error');
  if (!got.ok) {
    view.report(got.failure);
    problems.dataset.read = 'failed';
    // No such project (or not this person's): the error is all there is to show.
    const gone = got.failure.kind === 'http' && got.failure.status === 404;
    if (gone) byId('project-details').hidden = true;
    return;
  }
  view.project = got.value;
  // A read that works again drops its own failure, never the refusal of the person's last act
  // (the page is read again on every event, one of its own act's among them).
  if (problems.dataset.read) {
    problems.hidden = true;
    delete problems.dataset.read;
  }
  byId('project-details').hidden = false;
  showSummary(view.project);
  await Promise.all([
    showLock(view),
    showPages(view),
    showMembers(view),
    showHistory(view),
    showConfirmations(view),
  ]);
}

function showSummary(p: Project): void {
  document.title = `${p.title} · Galley`;
  byId('main').querySelector('h1')!.textContent = p.title;
  // A title being typed survives the project being read again (another person's change).
  const rename = byId<HTMLInputElement>('rename-title');
  if (rename.value === (rename.dataset.shown ?? rename.value)) rename.value = p.title;
  rename.dataset.shown = p.title;
  const rows: [string, Child][] = [
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
  const region = byId('page-list');
  if (!changedIn(region, [view.project.role, pages])) return;
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
    region,
    dataTable({
      caption: 'Pages',
      columns: ['File', 'Title', 'Public URL', 'Changed in', { name: 'Edit', hidden: true }],
      rows: pages.map((page): Row => [
        {},
        [
          h('code', {}, page.file),
          page.title,
          h('span', { class: 'mono' }, page.public_url),
          [`revision ${page.revision}`, ' ', unsavedMark(page.unsaved_draft, page.revision)],
          edit(page),
        ],
      ]),
    }),
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
  const remove = byId<HTMLButtonElement>('delete-project');
  remove.addEventListener('click', () => void deleteProject(view, remove));
}

/** Deletes the project after asking, in a dialog that names it and what goes with it. */
async function deleteProject(view: ProjectView, button: HTMLButtonElement): Promise<void> {
  const { title, pages } = view.project;
  const sure = await ask({
    title: `Delete “${title}”?`,
    body: [
      h(
        'p',
        {},
        `The project, its ${pages === 1 ? 'page' : `${pages} pages`}, every confirmed version and the whole history are deleted for every member. This cannot be undone.`,
      ),
    ],
    action: 'Delete project',
  });
  if (!sure) return;
  button.disabled = true;
  const deleted = await library().attempt(() => view.client.v1.deleteProject(view.projectId));
  button.disabled = false;
  if (!deleted.ok) return view.report(deleted.failure);
  location.assign('/projects');
}
