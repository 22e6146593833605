import pg from 'pg';
import { EVENTS_CHANNEL } from './events-repository.js';

/** How long to wait before connecting again after the listening connection was lost. */
const RECONNECT_MS = 1_000;

/**
 * Listens on PostgreSQL for events other processes store (`NOTIFY galley_events`), on a
 * connection of its own that is opened again when lost. `onNotice` is called for each one, and
 * once after every (re)connection, since events may have been missed meanwhile. Resolves once
 * listening; the returned function stops.
 */
export async function listenForEvents(
  url: string,
  onNotice: () => void,
  onError: (error: unknown) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL) onNotice();
    });
    next.on('error', (error) => {
      onError(error);
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!stopped) retry = setTimeout(() => void reconnect(), RECONNECT_MS);
    });
    await next.connect();
    await next.query(`listen ${EVENTS_CHANNEL}`);
    client = next;
    onNotice();
  };
  const reconnect = async () => {
    try {
      await connect();
    } catch (error) {
      onError(error);
      if (!stopped) retry = setTimeout(() => void reconnect(), RECONNECT_MS);
    }
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
