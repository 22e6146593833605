// Who is editing the project and since when (its lock), and which pages have unsaved changes
// (an open draft with an operation in effect): the project page shows both and keeps them
// current while it is open.
import type { v1 } from '@galley/core';
import type { z } from 'zod';
import { byId, changedIn, fill, h, time } from './dom.js';
import type { Child } from './dom.js';
import { library } from './library.js';
import type { ProjectView } from './project-view.js';

type Lock = z.output<typeof v1.Lock>;
type UnsavedDraft = z.output<typeof v1.UnsavedDraft>;

/** How often the page asks again, like the editor's own renewal (a third of the lock's life). */
export const EDITING_POLL_MS = 20_000;

/**
 * "Ada Lovelace (on the editing screen) is editing since 14:02 · 5 minutes ago": the holder, then
 * the client's label without the holder's name when it starts with it.
 */
export function lockLine(lock: Lock): Child[] {
  const name = lock.holder.name;
  const label = (lock.label.startsWith(name) ? lock.label.slice(name.length) : lock.label).trim();
  return [
    h('strong', {}, name),
    label ? ` (${label})` : '',
    ' is editing since ',
    time(lock.acquired_at, { clock: true }),
    '.',
  ];
}

/** Reads the lock and says who holds it; said again only when it changed (a live region). */
export async function showLock(view: ProjectView): Promise<void> {
  const got = await library().attempt(() => view.client.v1.getLock(view.projectId));
  if (!got.ok) return view.report(got.failure);
  const { lock } = got.value;
  const region = byId('project-lock');
  if (!changedIn(region, lock && [lock.holder.name, lock.label, lock.acquired_at])) return;
  region.classList.toggle('held', lock !== null);
  fill(region, lock ? lockLine(lock) : 'Nobody is editing this project right now.');
}

/**
 * A page's mark: "Unsaved changes by Ada · 5 minutes ago"; a draft opened before the page was
 * last saved also names the revision it was opened on.
 */
export function unsavedMark(draft: UnsavedDraft | null, revision: number): Child {
  if (!draft) return '';
  return h(
    'span',
    { class: 'badge unsaved' },
    `Unsaved changes by ${draft.by.name}`,
    draft.base_revision < revision ? ` on revision ${draft.base_revision}` : '',
    ' · ',
    time(draft.updated_at),
  );
}
