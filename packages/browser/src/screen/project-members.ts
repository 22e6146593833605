import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, fill, h, onSubmit, text } from './dom.js';
import { allPages, library } from './library.js';
import type { ProjectView } from './project.js';

type Member = z.output<typeof v1.Member>;
type Role = Member['role'];
const roles: readonly Role[] = ['owner', 'editor', 'viewer'];

/**
 * Members: owners change roles, add and remove anyone; any other member may only leave. The
 * service keeps at least one owner and answers 422 otherwise, which is shown as it comes.
 */
export async function showMembers(view: ProjectView): Promise<void> {
  const got = await library().attempt(async () => {
    const first = await view.client.v1.listMembers(view.projectId, { per_page: 200 });
    return allPages<Member, 'members'>(view.client, first, 'members');
  });
  if (!got.ok) return view.report(got.failure);
  const owner = view.project.owner;
  const form = byId<HTMLFormElement>('member-form');
  form.hidden = !owner;
  if (!form.dataset.bound) {
    form.dataset.bound = 'yes';
    onSubmit(form, (data) => putMember(view, text(data, 'email'), text(data, 'role') as Role));
  }
  const members = got.value;
  fill(
    byId('member-list'),
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, 'Members'),
      h(
        'thead',
        {},
        h('tr', {}, ...['Name', 'E-mail', 'Role', ''].map((n) => h('th', { scope: 'col' }, n))),
      ),
      h(
        'tbody',
        {},
        members.map((m) => memberRow(view, m, owner)),
      ),
    ),
  );
}

function memberRow(view: ProjectView, member: Member, owner: boolean): HTMLTableRowElement {
  const self = member.id === view.accountId;
  const role = owner ? roleSelect(view, member) : member.role;
  const remove =
    owner || self
      ? h(
          'button',
          { type: 'button', 'aria-label': self ? 'Leave the project' : `Remove ${member.name}` },
          self ? 'Leave' : 'Remove',
        )
      : '';
  if (remove) remove.addEventListener('click', () => void removeMember(view, member, self));
  return h(
    'tr',
    { 'data-member': member.id },
    h('td', {}, member.name),
    h('td', {}, member.email),
    h('td', {}, role),
    h('td', {}, remove),
  );
}

function roleSelect(view: ProjectView, member: Member): HTMLElement {
  const id = `role-${member.id}`;
  const select = h(
    'select',
    { id },
    roles.map((role) => h('option', { value: role, selected: role === member.role }, role)),
  );
  select.addEventListener('change', () => void putMember(view, member.email, select.value as Role));
  return h('span', {}, h('label', { for: id, class: 'sr-only' }, `Role of ${member.name}`), select);
}

async function putMember(view: ProjectView, email: string, role: Role): Promise<void> {
  const put = await library().attempt(() =>
    view.client.v1.putMember(view.projectId, { email, role }),
  );
  if (!put.ok) {
    view.report(put.failure);
    await showMembers(view);
    return;
  }
  view.status(`${email} is now ${role}.`);
  await view.refresh();
}

async function removeMember(view: ProjectView, member: Member, self: boolean): Promise<void> {
  const removed = await library().attempt(() =>
    view.client.v1.removeMember(view.projectId, member.id),
  );
  if (!removed.ok) return view.report(removed.failure);
  if (self) {
    location.assign('/projects');
    return;
  }
  view.status(`${member.name} was removed.`);
  await view.refresh();
}
