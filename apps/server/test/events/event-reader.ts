// One connection to GET /api/v1/events or /api/v2/events through the typed client, read one item
// at a time with a deadline: for the event tests here and the process tests of apps/cli.
import { createClient } from '@galley/client';
import type { StreamItem } from '@galley/client';

/** Long enough for an event that is coming, on a slow host. */
export const WAIT_MS = 5_000;

export interface EventReader {
  /** Resolves once the answer's headers came: from then on the stream gets every new event. */
  opened: Promise<void>;
  /** The next item, or null once the stream ended; throws when none comes within WAIT_MS. */
  next(): Promise<StreamItem | null>;
  /** Items until one of `kind` (included). */
  until(kind: string): Promise<StreamItem[]>;
  close(): void;
}

/** Opens the stream now (`api` v1 by default), resuming after `lastEventId` when given. */
export function openEvents(
  url: string,
  token: string,
  query: { api?: 'v1' | 'v2'; lastEventId?: string; project?: string } = {},
): EventReader {
  const stop = new AbortController();
  let markOpened = () => undefined as void;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));
  const client = createClient({
    baseUrl: url,
    token,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      markOpened();
      return response;
    },
  });
  const { api = 'v1', ...rest } = query;
  const options = { ...rest, signal: stop.signal };
  const items = api === 'v2' ? client.v2.events(options) : client.v1.events(options);
  // The first step sends the request; it is kept for the first `next`.
  let first: Promise<IteratorResult<StreamItem>> | null = items.next();
  first.catch(() => undefined);
  return {
    opened,
    async next() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no event came')), WAIT_MS);
      });
      const step = first ?? items.next();
      first = null;
      try {
        const read = await Promise.race([step, late]);
        return read.done ? null : read.value;
      } finally {
        clearTimeout(timer);
      }
    },
    async until(kind) {
      const seen: StreamItem[] = [];
      for (;;) {
        const item = await this.next();
        if (!item) throw new Error(`the stream ended before ${kind}`);
        seen.push(item);
        if (item.kind === kind) return seen;
      }
    },
    close: () => stop.abort(),
  };
}
