import { events } from '@galley/core';
import type { Store } from '@galley/store';
import { z } from 'zod';
import { stillAuthenticated } from '../auth/authenticate.js';
import { authOf } from '../auth/context.js';
import { problemOf } from '../http/problem.js';
import type { ApiRouter } from '../openapi/api-router.js';
import type { EventStreams } from './streams.js';

const LastEventId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,9})$/)
  .transform(Number);

/** Where a stream's events come from: the kinds it may carry and, in v1, one project. */
export interface EventRouteOptions {
  store: Store;
  streams: EventStreams;
  /** The kinds this interface's stream carries (the `kinds` filter narrows them). */
  kinds: readonly events.EventKind[];
  /** Whether `project` may narrow the stream to one project (v1). */
  byProject: boolean;
  /** The interface's words for what the stream carries. */
  about: string;
  tags: string[];
}

/** `GET /events`: the caller's events as server-sent events, resumable by `Last-Event-ID`. */
export function eventStreamRoute(api: ApiRouter, options: EventRouteOptions): void {
  const { streams, kinds } = options;
  const Query = z.object({
    kinds: events.KindsFilter.optional().describe(
      `Comma-separated kinds to send (default: all of ${kinds.map((k) => `\`${k}\``).join(', ')})`,
    ),
    ...(options.byProject
      ? { project: z.string().optional().describe('Only this project’s events') }
      : {}),
    last_event_id: LastEventId.optional().describe(
      'Resume after this event (for clients that cannot send the `Last-Event-ID` header)',
    ),
  });
  api.route(
    {
      method: 'get',
      path: '/events',
      summary: `Events of ${options.about} (server-sent events)`,
      description: [
        `A \`text/event-stream\` of what happens to ${options.about}. Each event has \`id:\` (its number), \`event:\` (its kind) and one \`data:\` line of JSON: \`{id, kind, at, data}\` (see docs/events.md for every kind’s \`data\`).`,
        'Send `Last-Event-ID` (or `last_event_id`) to get the events stored after it first; events are kept 7 days. When those after it are no longer kept, a `resync` event (`{oldest_id}`) comes first: read the state anew. Without it the stream starts with the next event.',
        'Only events of projects the caller can open (and of its own assets) are sent. A comment line comes every 15 seconds; the stream ends when the server stops or the credentials end.',
      ].join('\n\n'),
      tags: options.tags,
      query: Query,
      responses: {
        200: {
          description: 'The event stream; each event’s data is one of these',
          contentType: 'text/event-stream',
          schema: events.GalleyEvent,
        },
        400: { description: 'An unknown kind in `kinds`, or a malformed `Last-Event-ID`' },
        429: { description: '`too_many_streams`: the account has its most streams open' },
        503: { description: '`stopping`: the server is stopping; connect again' },
      },
    },
    async ({ req, res, query }) => {
      const q = query();
      const auth = authOf(req);
      const account = auth.account.accountNumber;
      const header = req.get('last-event-id');
      let lastEventId = q.last_event_id ?? null;
      if (header !== undefined && header !== '') {
        const parsed = LastEventId.safeParse(header.trim());
        if (!parsed.success) {
          throw problemOf('validation_failed', {
            detail: 'Last-Event-ID must be an event’s number.',
            status: 400,
          });
        }
        lastEventId = parsed.data;
      }
      const asked = q.kinds ?? kinds;
      await streams.open({
        res,
        accountNumber: account,
        filter: {
          kinds: new Set(asked.filter((kind) => kinds.includes(kind))),
          projectId: 'project' in q && typeof q.project === 'string' ? q.project : null,
        },
        lastEventId,
        head: req.method === 'HEAD',
        allowed: () => stillAuthenticated(options.store, req, account),
      });
    },
  );
}
