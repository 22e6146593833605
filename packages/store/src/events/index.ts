// The events domain as the Store exposes it: `store.events`, `store.webhooks`.
import type { RepoScope } from '../scope.js';
import type { OwnWrite } from '../stamped-cache.js';
import { EventsRepository } from './events-repository.js';
import { WebhooksRepository } from './webhooks-repository.js';

/** `unmoved`: other domains' remembered reads that no event changes (they absorb its write). */
export function eventRepositories(
  scope: RepoScope,
  unmoved: readonly { absorb(write: OwnWrite): void }[],
) {
  return { events: new EventsRepository(scope, unmoved), webhooks: new WebhooksRepository(scope) };
}

export { EVENTS_CHANNEL } from './events-repository.js';
export type { NewEvent, EventRecord } from './records.js';
export type {
  WebhookRecord,
  DeliveryRecord,
  DeliveryStatus,
  AttemptOutcome,
} from './webhooks-repository.js';
export { listenForEvents } from './listen.js';
