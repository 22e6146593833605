import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, changedIn, dataTable, fill, h, onSubmit, text } from './dom.js';
import type { Row } from './dom.js';
import { ask } from './dialog.js';
import { allPages, library } from './library.js';
import type { ProjectView } from './project-view.js';

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
    onSubmit(form, async (data) => {
      await putMember(view, text(data, 'email'), text(data, 'role') as Role);
    });
  }
  const list = byId('member-list');
  if (!changedIn(list, [owner, got.value])) return;
  const pending = pendingRoles(list);
  fill(
    list,
    dataTable({
      caption: 'Members',
      columns: ['Name', 'E-mail', 'Role', { name: 'Actions', hidden: true }],
      rows: got.value.map((m) => memberRow(view, m, owner, pending.get(m.id))),
    }),
  );
}

/**
 * The roles chosen in `list` and not saved yet, by member: the list is drawn again whenever the
 * project changes (a rename, a confirmation, another person's edit), and a choice the person was
 * about to save must survive that.
 */
function pendingRoles(list: HTMLElement): Map<string, Role> {
  const pending = new Map<string, Role>();
  for (const select of list.querySelectorAll<HTMLSelectElement>('select[data-saved-role]')) {
    if (select.value !== select.dataset.savedRole) {
      pending.set(select.dataset.memberId!, select.value as Role);
    }
  }
  return pending;
}

function memberRow(view: ProjectView, member: Member, owner: boolean, pending?: Role): Row {
  const self = member.id === view.accountId;
  const remove =
    owner || self
      ? h(
          'button',
          { type: 'button', 'aria-label': self ? 'Leave the project' : `Remove ${member.name}` },
          self ? 'Leave' : 'Remove',
        )
      : '';
  if (remove) remove.addEventListener('click', () => void removeMember(view, member, self));
  return [
    { 'data-member': member.id },
    [
      member.name,
      h('span', { class: 'mono' }, member.email),
      owner ? roleControl(view, member, pending) : member.role,
      remove,
    ],
  ];
}

/**
 * The role drop-down and its Save button: choosing (with the mouse or the arrow keys) only
 * enables Save; the role is written when Save is pressed, never on a change of the choice.
 */
function roleControl(view: ProjectView, member: Member, pending?: Role): HTMLElement {
  const id = `role-${member.id}`;
  const chosen = pending ?? member.role;
  const select = h(
    'select',
    { id, 'data-saved-role': member.role, 'data-member-id': member.id },
    roles.map((role) => h('option', { value: role, selected: role === chosen }, role)),
  );
  const save = h(
    'button',
    {
      type: 'button',
      disabled: chosen === member.role,
      'aria-label': `Save role for ${member.name}`,
    },
    'Save',
  );
  select.addEventListener('change', () => {
    save.disabled = select.value === member.role;
  });
  save.addEventListener('click', () => {
    save.disabled = true;
    // Refused (said above the forms), the choice stays and can be saved again.
    void putMember(view, member.email, select.value as Role).then((saved) => {
      if (!saved) save.disabled = select.value === member.role;
    });
  });
  return h(
    'span',
    { class: 'role-control' },
    h('label', { for: id, class: 'sr-only' }, `Role of ${member.name}`),
    select,
    save,
  );
}

/** Adds a member or changes a role; whether the service took it. */
async function putMember(view: ProjectView, email: string, role: Role): Promise<boolean> {
  const put = await library().attempt(() =>
    view.client.v1.putMember(view.projectId, { email, role }),
  );
  if (!put.ok) {
    view.report(put.failure);
    await showMembers(view);
    return false;
  }
  view.status(`${email} is now ${role}.`);
  await view.refresh();
  return true;
}

async function removeMember(view: ProjectView, member: Member, self: boolean): Promise<void> {
  const title = view.project.title;
  const sure = await ask(
    self
      ? {
          title: `Leave “${title}”?`,
          body: [
            h('p', {}, 'You will no longer see or edit this project; an owner can add you again.'),
          ],
          action: 'Leave the project',
        }
      : {
          title: `Remove ${member.name} from “${title}”?`,
          body: [
            h(
              'p',
              {},
              `${member.name} (`,
              h('span', { class: 'mono' }, member.email),
              `, ${member.role}) will no longer see or edit this project.`,
            ),
          ],
          action: `Remove ${member.name}`,
        },
  );
  if (!sure) return;
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
