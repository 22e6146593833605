import { LastEventId } from '@galley/core';
import type { EventRoutes, events } from '@galley/core';
import type { Store } from '@galley/store';
import { stillAuthenticated } from '../auth/authenticate.js';
import { authOf } from '../auth/context.js';
import { problemOf } from '../http/problem.js';
import type { ApiRouter } from '../openapi/api-router.js';
import type { EventStreams } from './streams.js';

/** Where a stream's events come from: the kinds it may carry and, in v1, one project. */
export interface EventRouteOptions {
  store: Store;
  streams: EventStreams;
  /** The kinds this interface's stream carries (the `kinds` filter, checked by the route, narrows them). */
  kinds: readonly events.EventKind[];
}

/** `GET /events`: the caller's events as server-sent events, resumable by `Last-Event-ID`. */
export function eventStreamRoute(api: ApiRouter<EventRoutes>, options: EventRouteOptions): void {
  const { streams, kinds } = options;
  api.handle('events', async ({ req, res, query }) => {
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
    await streams.open({
      res,
      accountNumber: account,
      filter: {
        kinds: new Set(q.kinds ?? kinds),
        projectId: 'project' in q && typeof q.project === 'string' ? q.project : null,
      },
      lastEventId,
      head: req.method === 'HEAD',
      allowed: () => stillAuthenticated(options.store, req, account),
    });
  });
}
