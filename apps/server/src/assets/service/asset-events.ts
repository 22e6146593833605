import type { events } from '@galley/core';
import type { EventHub } from '../../events/hub.js';

type AssetKind = Extract<events.EventKind, `asset.${string}`>;

/** A change of an asset, as its event says it. */
export type AssetChange = {
  [K in AssetKind]: { kind: K; data: events.EventDataOf<K> };
}[AssetKind];

/**
 * The event of a committed write (a new revision, a new title, a new state, a deletion for good),
 * told once: a replayed answer tells nothing again. Erasing a revision's content makes none.
 */
export function announce(hub: EventHub, accountNumber: number, change: AssetChange): void {
  void hub.publish({ kind: change.kind, projectId: null, accountNumber, data: change.data });
}
