// The open project page follows the project's events, so another person's change shows as it
// happens (a save, a rename, undo and redo, a confirmation, members, who is editing) instead of
// at the page's own next act. Draft changes are not followed: an operation is one event each,
// and the page's poll marks unsaved pages.
import type { events } from '@galley/core';
import { library } from './library.js';
import type { ProjectView } from './project-view.js';

const KINDS: readonly events.EventKind[] = [
  'project.saved',
  'project.confirmed',
  'project.members_changed',
  'project.deleted',
  'lock.taken',
  'lock.released',
];
/** A burst of events (a confirmation of one's own, a save of many pages) is read once. */
const SETTLE_MS = 250;
/** A dropped or refused stream (the service bounds streams per account) is tried again after. */
const RETRY_MS = 5_000;

/** Reads the project again a moment after each burst of its events, while the page is open. */
export function followProject(view: ProjectView): void {
  const { followEvents } = library();
  let settling: ReturnType<typeof setTimeout> | undefined;
  const follow = async () => {
    const query = { project: view.projectId, kinds: KINDS, retryMs: RETRY_MS };
    for await (const _event of followEvents((q) => view.client.v1.events(q), query)) {
      clearTimeout(settling);
      settling = setTimeout(() => void view.refresh(), SETTLE_MS);
    }
  };
  // Refused for good (the project gone, the session ended): the page's own reads say so.
  follow().catch(() => undefined);
}
