// Tables of the events domain: what happened to projects and assets, in one numbered sequence
// (server-sent event streams resume from a number), and the webhooks that receive it.
// Times are IsoTime text (see ../time.ts); JSON values are stored as text.
import type { Generated } from 'kysely';

export interface EventsTable {
  /** Numbers rise in the order events were committed (writers take turns: see EventsRepository). */
  seq: Generated<number>;
  kind: string;
  /** The project the event is about; null for an asset's event. */
  project_id: string | null;
  /** The account owning the asset the event is about; null for a project's event. */
  account_number: number | null;
  /**
   * JSON list of the account numbers that may see the event, for events whose project no longer
   * says who its members were (its deletion); null: the project's members or the asset's owner.
   */
  audience: string | null;
  at: string;
  /** The event's payload as JSON. */
  data: string;
}

export interface WebhooksTable {
  id: string;
  /** The account that registered the webhook (a project owner, or the assets' owner). */
  account_number: number;
  /** The project whose events are sent; null: the account's assets. */
  project_id: string | null;
  url: string;
  /** The signing secret's base64 bytes (without the `whsec_` prefix). */
  secret: string;
  /** JSON list of the event kinds sent. */
  kinds: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_seq: number;
  /** `pending` (a try is due at next_attempt_at), `delivered`, `failed` (gave up after a day). */
  status: string;
  attempts: number;
  created_at: string;
  next_attempt_at: string;
  /** A process trying the delivery holds it until then; another may take it after. */
  claimed_until: string | null;
  last_attempt_at: string | null;
  /** The last answer's HTTP status; null when there was none (refused, timed out). */
  last_status: number | null;
  /** The last answer's first bytes, or why there was none. */
  last_response: string | null;
}

export interface EventsTables {
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
