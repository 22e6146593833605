// Events: what happened to projects and assets, as server-sent event streams
// (`GET /api/v1/events`, `GET /api/v2/events`) and webhook deliveries send them.
// One envelope per event; `kind` tells which payload `data` has. See docs/events.md.
import { z } from 'zod';
import { Timestamp } from './common.js';
import { HistoryKind, Lock } from './v1.js';
import { AssetState } from './v2.js';

const ProjectId = z.string().describe('The project the event is about');
const PageId = z.string().describe('The page the event is about');
const AssetId = z.string().describe('The asset the event is about');

/** Each kind's payload. */
export const EventData = {
  'lock.taken': z.object({ project_id: ProjectId, lock: Lock }),
  'lock.released': z.object({ project_id: ProjectId }),
  'draft.changed': z.object({
    project_id: ProjectId,
    page_id: PageId,
    action: z.enum(['opened', 'operation', 'undo', 'redo', 'discarded']),
  }),
  'project.saved': z.object({
    project_id: ProjectId,
    revision: z.number().int(),
    // A project's first revision (`create`) is made with it: no event tells of it.
    kind: HistoryKind.exclude(['create']),
    page_id: PageId.nullable(),
  }),
  'project.confirmed': z.object({
    project_id: ProjectId,
    version: z.number().int(),
    revision: z.number().int(),
    sha256: z.string(),
  }),
  'project.members_changed': z.object({ project_id: ProjectId }),
  'project.deleted': z.object({ project_id: ProjectId }),
  'asset.revised': z.object({ asset_id: AssetId, revision: z.number().int() }),
  'asset.renamed': z.object({ asset_id: AssetId, title: z.string() }),
  'asset.state_changed': z.object({
    asset_id: AssetId,
    state: z.union([AssetState, z.literal('removed')]).describe('`removed`: deleted for good'),
  }),
};

export type EventKind = keyof typeof EventData;
export type EventDataOf<K extends EventKind> = z.infer<(typeof EventData)[K]>;

export const EVENT_KINDS = Object.keys(EventData) as EventKind[];
export const EventKindSchema = z.enum(EVENT_KINDS as [EventKind, ...EventKind[]]);
export const PROJECT_EVENT_KINDS = EVENT_KINDS.filter((kind) => !kind.startsWith('asset.'));
export const ASSET_EVENT_KINDS = EVENT_KINDS.filter((kind) => kind.startsWith('asset.'));

const envelope = <K extends EventKind>(kind: K) =>
  z.object({
    id: z.string().describe('The event’s number, rising; `Last-Event-ID` resumes after it'),
    kind: z.literal(kind),
    at: Timestamp,
    data: EventData[kind],
  });

/** One event: its number, kind, time and payload (the SSE `data:` line and a webhook's body). */
export const GalleyEvent = z.discriminatedUnion(
  'kind',
  EVENT_KINDS.map(envelope) as unknown as [
    ReturnType<typeof envelope<EventKind>>,
    ...ReturnType<typeof envelope<EventKind>>[],
  ],
);
export type GalleyEvent = {
  [K in EventKind]: { id: string; kind: K; at: string; data: EventDataOf<K> };
}[EventKind];

/**
 * The comma-separated `kinds` filter of an event stream: kinds of its interface only (a kind of
 * the other one is refused, as a webhook's would be).
 */
export const kindsFilterOf = (kinds: readonly EventKind[]) =>
  z
    .string()
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(z.enum(kinds as [EventKind, ...EventKind[]])).min(1));

/** The `resync` event: events after the given `Last-Event-ID` are no longer kept; read anew. */
export const ResyncData = z.object({ oldest_id: z.string() });

export const CreateWebhook = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2000),
  kinds: z.array(EventKindSchema).min(1),
});
export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  kinds: z.array(EventKindSchema),
  project_id: z.string().nullable(),
  created_at: Timestamp,
});
/** The answer of a registration: the only time the signing secret is shown. */
export const CreatedWebhook = Webhook.extend({
  secret: z.string().describe('`whsec_` and the base64 key: verify deliveries with it'),
});
export const WebhookList = z.object({ webhooks: z.array(Webhook) });
export const Delivery = z.object({
  id: z.string(),
  event_id: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  created_at: Timestamp,
  next_attempt_at: Timestamp.nullable(),
  last_attempt_at: Timestamp.nullable(),
  last_status: z.number().int().nullable(),
  last_response: z.string().nullable(),
});
export const DeliveryList = z.object({ deliveries: z.array(Delivery) });
