import type { events } from '@galley/core';
import type { EventHub } from '../../events/hub.js';

type ProjectKind = Exclude<events.EventKind, `asset.${string}`>;

/** A change of a project, as its event says it (the project is given apart). */
export type ProjectChange = {
  [K in ProjectKind]: { kind: K; data: Omit<events.EventDataOf<K>, 'project_id'> };
}[ProjectKind];

/**
 * Word that a project's editing state changed: its lock (taken, released), a draft of one of its
 * pages (opened, operated on, undone, redone, discarded), its saved revision, its confirmations
 * or its members. Each becomes an event (EventHub), which every process's event streams, page
 * streams and webhooks follow.
 */
export class EditingSignals {
  readonly #hub: EventHub;

  constructor(hub: EventHub) {
    this.#hub = hub;
  }

  /**
   * `audience`: who may see the event when its project cannot say (a deleted project's members).
   * `relaxed`: the change was committed without the flush to disk (a draft's operation), and its
   * event may be stored so too (NewEvent.relaxed).
   */
  changed(
    projectId: string,
    change: ProjectChange,
    options: { audience?: number[]; relaxed?: boolean } = {},
  ): void {
    void this.#hub.publish({
      kind: change.kind,
      projectId,
      accountNumber: null,
      audience: options.audience ?? null,
      data: { project_id: projectId, ...change.data },
      relaxed: options.relaxed === true,
    });
  }
}
