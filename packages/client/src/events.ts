import type { events } from '@galley/core';
import { readEventStream } from './event-stream.js';

/** An event, or word that those after the given id are gone (read the state anew). */
export type StreamItem = events.GalleyEvent | { kind: 'resync'; oldest_id: string };

export interface EventQuery {
  kinds?: readonly events.EventKind[];
  /** v1 only: one project's events. */
  project?: string;
  /** Resume after this event. */
  lastEventId?: string;
  signal?: AbortSignal;
}

/** The request headers of an event stream that resumes after `lastEventId`, if given. */
export const streamHeaders = (lastEventId?: string): Record<string, string> => ({
  accept: 'text/event-stream',
  ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
});

/**
 * One connection to `GET /events` (v1 or v2), opened by `open`, as an async iterator; it ends
 * when the server ends the stream. A refusal throws GalleyApiError at the first step.
 */
export async function* eventStream(
  open: () => Promise<Response>,
): AsyncGenerator<StreamItem, void, undefined> {
  const response = await open();
  if (!response.body) return;
  for await (const { event, data } of readEventStream(response.body)) {
    const body = JSON.parse(data) as Record<string, unknown>;
    if (event === 'resync') yield { kind: 'resync', oldest_id: String(body.oldest_id) };
    else yield body as events.GalleyEvent;
  }
}

/**
 * Every event from now on (or after `lastEventId`), across dropped connections: each new
 * connection resumes after the last event seen. Ends only when `signal` aborts; a refusal
 * (401, 403, 404) throws.
 */
export async function* followEvents(
  open: (query: EventQuery) => AsyncGenerator<StreamItem>,
  query: EventQuery & { retryMs?: number },
): AsyncGenerator<StreamItem, void, undefined> {
  let last = query.lastEventId;
  for (;;) {
    try {
      for await (const item of open({ ...query, ...(last ? { lastEventId: last } : {}) })) {
        if (item.kind !== 'resync') last = item.id;
        yield item;
      }
    } catch (error) {
      if (query.signal?.aborted) return;
      const status = (error as { status?: number }).status;
      if (status !== undefined && status < 500 && status !== 429) throw error;
    }
    if (query.signal?.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, query.retryMs ?? 1_000));
  }
}
