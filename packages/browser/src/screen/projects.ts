import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, dataTable, fill, h, onSubmit, time, within } from './dom.js';
import type { Row } from './dom.js';
import { allPages, library, screenClient } from './library.js';
import type { Client } from './library.js';
import { failureView } from './views.js';
import { keepTimesCurrent } from './when.js';

type Project = z.output<typeof v1.Project>;
type CreatedProject = z.output<typeof v1.CreatedProject>;
type SiteReport = z.output<typeof v1.SiteReport>;

/** Projects: the list, and opening a project folder or a plain site ZIP. */
export async function startProjects(): Promise<void> {
  keepTimesCurrent();
  const client = screenClient();
  const result = byId('open-result');
  onSubmit(byId<HTMLFormElement>('open-form'), async (data) => {
    const file = data.get('zip');
    if (!(file instanceof File)) return;
    fill(result, h('p', {}, `Opening ${file.name}…`));
    const index = data.get('index');
    const site = {
      ...(typeof index === 'string' && index.trim() !== '' ? { index: index.trim() } : {}),
      drop_external: data.get('drop_external') === 'true',
      drop_missing: data.get('drop_missing') === 'true',
    };
    const created = await library().attempt(() => client.v1.createProject(file, site));
    if (!created.ok) {
      fill(result, failureView(created.failure));
      return;
    }
    fill(result, openedView(created.value));
    await listProjects(client);
  });
  await listProjects(client);
}

async function listProjects(client: Client): Promise<void> {
  const region = byId('project-list');
  const first = await library().attempt(() => client.v1.listProjects({ per_page: 200 }));
  if (!first.ok) {
    fill(region, failureView(first.failure));
    return;
  }
  const projects = await allPages<Project, 'projects'>(client, first.value, 'projects');
  if (projects.length === 0) {
    fill(region, h('p', {}, 'No projects yet: open a folder or a site above.'));
    return;
  }
  fill(
    region,
    dataTable({
      caption: 'Projects',
      columns: ['Title', 'Medium', 'Your role', 'Pages', 'Revision', 'Updated', 'Edit'],
      rows: projects.map((p): Row => [
        { 'data-project-id': p.id },
        [
          h('a', { href: within(p.url) }, p.title),
          p.medium,
          p.role,
          p.pages,
          p.revision,
          time(p.updated_at),
          p.role === 'viewer'
            ? ''
            : h('a', { href: within(p.editor_url), 'aria-label': `Edit ${p.title}` }, 'Edit'),
        ],
      ]),
    }),
  );
}

/** The new project, and for a plain site the conversion report: pages, ignored files, warnings. */
function openedView(project: CreatedProject): HTMLElement {
  return h(
    'div',
    { role: 'status', class: 'opened' },
    h('p', { class: 'ok' }, 'Opened ', h('a', { href: within(project.url) }, project.title), '.'),
    project.site ? siteView(project.site) : '',
  );
}

function siteView(site: SiteReport): HTMLElement {
  const list = (items: readonly (string | Node)[], none: string) =>
    items.length
      ? h(
          'ul',
          {},
          items.map((item) => h('li', {}, item)),
        )
      : h('p', {}, none);
  return h(
    'section',
    { class: 'report', 'aria-label': 'Conversion report' },
    h('h3', {}, 'Converted from a plain site'),
    h('h4', {}, `Pages (${site.pages.length})`),
    list(
      site.pages.map((p) => `${p.file} → ${p.public_url}`),
      'None.',
    ),
    h('h4', {}, `Ignored files (${site.ignored.length})`),
    list(site.ignored, 'None.'),
    h('h4', {}, `Warnings (${site.warnings.length})`),
    list(
      site.warnings.map((w) =>
        h(
          'span',
          {},
          h('code', {}, w.code),
          ` ${w.path}${w.target ? ` → ${w.target}` : ''}: ${w.message}`,
        ),
      ),
      'None.',
    ),
  );
}
