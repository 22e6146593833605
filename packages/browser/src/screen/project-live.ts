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

/**
 * Reads the project again a moment after each burst of its events, while the page is open. A
 * burst of saves only that the page has shown already (its own act's, read again as it ended)
 * is not read a second time.
 */
export function followProject(view: ProjectView): void {
  const { followEvents } = library();
  let settling: ReturnType<typeof setTimeout> | undefined;
  let savedUpTo = 0; // the newest revision the burst's saves made
  let notSaves = false; // the burst holds another kind (or a resync)
  const settle = () => {
    const shown = !notSaves && savedUpTo <= view.project.revision;
    savedUpTo = 0;
    notSaves = false;
    if (!shown) void view.refresh();
  };
  const follow = async () => {
    const query = { project: view.projectId, kinds: KINDS, retryMs: RETRY_MS };
    for await (const event of followEvents((q) => view.client.v1.events(q), query)) {
      if (event.kind === 'project.saved') savedUpTo = Math.max(savedUpTo, event.data.revision);
      else notSaves = true;
      clearTimeout(settling);
      settling = setTimeout(settle, SETTLE_MS);
    }
  };
  // Refused for good (the project gone, the session ended): the page's own reads say so.
  follow().catch(() => undefined);
}
