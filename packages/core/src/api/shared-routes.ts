// Operations both interfaces have, each over its own events and webhooks.
import { z } from 'zod';
import * as events from './events.js';
import { sharedPaths } from './paths.js';
import type { WebhookPaths } from './paths.js';
import { route } from './route.js';
import type { ResponseSpec } from './route.js';

type Kinds = readonly events.EventKind[];

export const LastEventId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,9})$/)
  .transform(Number);

/** `GET /events`: the caller's events as server-sent events, resumable by `Last-Event-ID`. */
export function eventRoute(options: { about: string; kinds: Kinds; byProject: boolean }) {
  const { about, kinds } = options;
  const query = z.object({
    kinds: events
      .kindsFilterOf(kinds)
      .optional()
      .describe(
        `Comma-separated kinds to send (default: all of ${kinds.map((k) => `\`${k}\``).join(', ')})`,
      ),
    ...(options.byProject
      ? { project: z.string().optional().describe('Only this project’s events') }
      : {}),
    last_event_id: LastEventId.optional().describe(
      'Resume after this event (for clients that cannot send the `Last-Event-ID` header)',
    ),
  });
  return route({
    ...sharedPaths.events,
    summary: `Events of ${about} (server-sent events)`,
    description: [
      `A \`text/event-stream\` of what happens to ${about}. Each event has \`id:\` (its number), \`event:\` (its kind) and one \`data:\` line of JSON: \`{id, kind, at, data}\` (see docs/events.md for every kind’s \`data\`).`,
      'Send `Last-Event-ID` (or `last_event_id`) to get the events stored after it first; events are kept 7 days. When those after it are no longer kept, a `resync` event (`{oldest_id}`) comes first: read the state anew. Without it the stream starts with the next event.',
      `Only events of ${about} are sent. A comment line comes every 15 seconds; the stream ends when the server stops or the credentials end.`,
    ].join('\n\n'),
    tags: ['Events'],
    query,
    responses: {
      200: {
        description: 'The event stream; each event’s data is one of these',
        contentType: 'text/event-stream',
        schema: events.GalleyEvent,
      },
      400: { description: 'A malformed `Last-Event-ID`', codes: ['validation_failed'] },
      422: {
        description:
          'Invalid query (`errors`): a `kinds` entry that is not a kind of this interface, or a malformed `last_event_id`',
        codes: ['validation_failed'],
      },
      429: {
        description: '`too_many_streams`: the account has its most streams open',
        codes: ['too_many_streams'],
      },
      503: {
        description: '`stopping`: the server is stopping; connect again',
        codes: ['stopping'],
      },
    },
  });
}

export const WebhookId = z.string().regex(/^whk_[0-9a-z]{20}$/);
export const DeliveryId = z.string().regex(/^dlv_[0-9a-z]{20}$/);

/**
 * Registering, listing and removing webhooks, their deliveries with their last answers,
 * replays: at `paths` (a project's or an account's), whose parameters are `params`.
 */
export function webhookRoutes<P extends z.ZodObject<Record<string, z.ZodType<string>>>>(options: {
  paths: WebhookPaths;
  params: P;
  kinds: Kinds;
  /** A project's webhooks (v1): its owners' to manage. */
  byProject: boolean;
}) {
  const { paths, params } = options;
  const one = params.extend({ webhook: WebhookId });
  const oneDelivery = one.extend({ delivery: DeliveryId });
  const create = events.CreateWebhook.extend({
    kinds: z.array(z.enum(options.kinds as [events.EventKind, ...events.EventKind[]])).min(1),
  });
  const tags = ['Events'];
  // A project's webhooks are its owners'; the caller's own (v2) are the caller's alone.
  const project: Record<number, ResponseSpec> = options.byProject
    ? {
        403: { description: 'Not an owner of the project', codes: ['owner_required'] },
        404: {
          description: 'No such project, or the caller is not a member',
          codes: ['not_found'],
        },
      }
    : {};
  const noWebhook = { ...project, 404: { description: 'No such webhook', codes: ['not_found'] } };
  return {
    createWebhook: route({
      ...paths.createWebhook,
      summary: 'Register a webhook: a URL that receives the chosen events, signed',
      description:
        'The answer shows the signing `secret` once. Deliveries are signed as Standard Webhooks says (`webhook-id`, `webhook-timestamp`, `webhook-signature`), tried again with pauses for about a day, and listed with their last answers. A URL resolving to a loopback, private, link-local or metadata address is refused (422 `webhook_url_refused`), unless the operator allows private addresses.',
      tags,
      params,
      body: create,
      responses: {
        201: { description: 'The webhook, with its secret', schema: events.CreatedWebhook },
        ...project,
        422: {
          description: 'Invalid body (`errors`), or `webhook_url_refused`',
          codes: ['validation_failed', 'webhook_url_refused'],
        },
      },
    }),
    listWebhooks: route({
      ...paths.listWebhooks,
      summary: 'The webhooks registered here',
      tags,
      params,
      responses: { 200: { description: 'The webhooks', schema: events.WebhookList }, ...project },
    }),
    deleteWebhook: route({
      ...paths.deleteWebhook,
      summary: 'Remove a webhook (its deliveries stop)',
      tags,
      params: one,
      responses: { 204: { description: 'Removed' }, ...noWebhook },
    }),
    listDeliveries: route({
      ...paths.listDeliveries,
      summary: 'The webhook’s latest deliveries, newest first, with their last answers',
      tags,
      params: one,
      responses: {
        200: { description: 'The deliveries', schema: events.DeliveryList },
        ...noWebhook,
      },
    }),
    replayDelivery: route({
      ...paths.replayDelivery,
      summary: 'Send a delivery’s event again (a new delivery, due now)',
      tags,
      params: oneDelivery,
      responses: {
        202: { description: 'The new delivery', schema: events.Delivery },
        ...project,
        404: {
          description: 'No such webhook or delivery, or its event is no longer kept',
          codes: ['not_found'],
        },
      },
    }),
  };
}

/**
 * `GET /schemas/{kind}/{version}`: the JSON Schema addressed as `svc://schemas/<kind>/<version>`.
 * The asset interface serves it to its callers (decisions §6); the editing interface serves it
 * to anyone, beside its OpenAPI document, so the schema of project.json has an address that
 * opens in a browser or an editor (`/api/v1/schemas/project/1`).
 */
export const schemaRoute = (authenticated: boolean) =>
  route({
    ...sharedPaths.getSchema,
    summary: authenticated
      ? 'Read a JSON Schema'
      : 'Read a JSON Schema (no credentials needed): `project/1` is the schema of project.json',
    authenticated,
    params: z.object({ kind: z.string().max(64), version: z.string().max(16) }),
    responses: {
      200: {
        description: 'The JSON Schema',
        contentType: 'application/schema+json',
        schema: z.record(z.string(), z.unknown()),
      },
      404: { description: 'No such schema', codes: ['not_found'] },
    },
  });

export type EventRoutes = { events: ReturnType<typeof eventRoute> };
export type WebhookRoutes = ReturnType<
  typeof webhookRoutes<z.ZodObject<Record<string, z.ZodType<string>>>>
>;
export type SchemaRoutes = { getSchema: ReturnType<typeof schemaRoute> };
