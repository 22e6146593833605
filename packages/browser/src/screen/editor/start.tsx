import { render } from 'preact';
import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, fill, h, ScreenError } from '../dom.js';
import { allPages, library, screenClient } from '../library.js';
import { claimEditorClient, csrfToken } from '../session.js';
import { failureLine } from '../views.js';
import { EditorApp } from './app.js';
import { EditorLifecycle } from './lifecycle.js';
import { EditorScreen } from './screen.js';
import { handleKey } from './keys.js';
import type { PageInfo } from './screen.js';

type Page = z.output<typeof v1.Page> & Pick<PageInfo, 'unsaved_draft'>;

/**
 * The page editor: takes the lock, opens a draft kept in step with the server's, shows it in a
 * preview the person points at, and runs the save-time checks locally as they edit. Read-only
 * (with the holder's changes live) while another client holds the lock.
 */
export async function startEditor(): Promise<void> {
  const root = byId('editor-root');
  const { project: projectId, page: wanted, accountName } = document.body.dataset;
  const { previewBase } = root.dataset;
  if (!projectId || !previewBase)
    throw new ScreenError('missing_data', 'The page names no project.');
  await claimEditorClient();
  const client = screenClient();
  const lib = library();
  const stop = (message: Node | string) => fill(root, h('p', { role: 'alert' }, message));
  const project = await lib.attempt(() => client.v1.getProject(projectId));
  if (!project.ok) return stop(failureLine(project.failure));
  const first = await lib.attempt(() => client.v1.listPages(projectId, { per_page: 200 }));
  if (!first.ok) return stop(failureLine(first.failure));
  const pages = await allPages<Page, 'pages'>(client, first.value, 'pages');
  const page = wanted ? pages.find((p) => p.id === wanted) : pages[0];
  if (!page) return stop(wanted ? 'This project has no such page.' : 'This project has no pages.');
  document.title = `${page.file} in ${project.value.title} · Galley`;
  byId('main').querySelector('h1')!.textContent = `Editing ${page.file} in ${project.value.title}`;
  const screen = new EditorScreen({
    client,
    projectId,
    projectTitle: project.value.title,
    medium: project.value.media,
    page,
    pages,
    // The preview document sits at the page's own path, so its relative links reach its files.
    previewAction: `${previewBase}${page.file.split('/').map(encodeURIComponent).join('/')}`,
    previewBase,
    csrfToken: csrfToken(),
    accountName: accountName ?? 'Someone',
    role: project.value.role,
  });
  const lifecycle = new EditorLifecycle(screen);
  fill(root);
  render(<EditorApp screen={screen} lifecycle={lifecycle} />, root);
  document.addEventListener('keydown', (event) => handleKey(screen, event));
  await lifecycle.start();
}
