import type { Express } from 'express';
import type { Store } from '@galley/store';
import { storageUnavailable } from './errors.js';

/** A readiness check that takes longer than this counts as storage unavailable. */
const READY_TIMEOUT_MS = 3_000;

/**
 * `GET /healthz`: the process is up and answering (liveness; it touches nothing else, so an outage
 * of the database does not get healthy processes restarted). `GET /readyz`: it can serve requests
 * now: the database answers and the data folder takes writes (503 `storage_unavailable` else).
 */
export function healthRoutes(app: Express, store: Store): void {
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    await withTimeout(store.ready(), READY_TIMEOUT_MS);
    res.json({ status: 'ready' });
  });
}

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(storageUnavailable()), ms);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
