import type { Clock, Store } from '@galley/store';
import { isoTime, storageFailureOf } from '@galley/store';
import type { Logger } from 'pino';
import { causeOf } from '../../failure-cause.js';
import { writeOutShownAnswers } from './run-once.js';

/** Trashed assets are removed for good after 30 days (asset-api-v2, Limits). */
export const TRASH_RETENTION_SECONDS = 30 * 86_400;

export interface SweepReport {
  purgedAssets: number;
  expiredBlobs: number;
  deletedContents: number;
  expiredRequestKeys: number;
}

/** One sweep: purges old trash, expires blobs and request keys, and deletes unused bytes. */
export async function sweepOnce(store: Store, clock: Clock): Promise<SweepReport> {
  const report: SweepReport = {
    purgedAssets: 0,
    expiredBlobs: 0,
    deletedContents: 0,
    expiredRequestKeys: 0,
  };
  const cutoff = isoTime(new Date(clock.now().getTime() - TRASH_RETENTION_SECONDS * 1000));
  for (const id of await store.assets.trashedBefore(cutoff)) {
    const dropped = await store.transaction(async (tx) => {
      const current = await tx.assets.lockRow(id);
      if (current?.state !== 'deleted' || current.stateChangedAt > cutoff) return null; // restored
      await writeOutShownAnswers(tx, id);
      return tx.assets.delete(id);
    });
    if (dropped === null) continue;
    report.purgedAssets++;
    report.deletedContents += (await store.content.release(dropped)).length;
  }
  const expired = await store.blobs.expire();
  report.expiredBlobs = expired.length;
  report.deletedContents += (await store.content.release(expired)).length;
  report.expiredRequestKeys = await store.requestKeys.purgeExpired();
  return report;
}

/**
 * How often a sweep is due (clock time) and the clock is looked at (real time), see
 * `startSweeper`; `task`: its name among the turns all processes share (ServiceTurnsRepository).
 */
const SWEEP = { everyMs: 60_000, lookEveryMs: 1_000, task: 'sweep' } as const;

/**
 * Runs `sweepOnce` whenever a minute has passed on `clock` (checked every second of real time),
 * so a test that moves its clock 30 days sees the sweep within a second. Every process looks,
 * and the one that takes the turn in the database sweeps: once a minute for the whole service,
 * however many processes share the database. Stop it on close.
 */
export function startSweeper(deps: { store: Store; clock: Clock; logger: Logger }) {
  let lastSweep = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;
  const look = () => {
    if (running || deps.clock.now().getTime() - lastSweep < SWEEP.everyMs) return;
    lastSweep = deps.clock.now().getTime();
    running = deps.store.serviceTurns
      .take(SWEEP.task, SWEEP.everyMs)
      .then(async (turn) => {
        if (!turn) return; // another process swept within the minute
        const report = await sweepOnce(deps.store, deps.clock);
        if (report.purgedAssets || report.expiredBlobs)
          deps.logger.info({ sweep: report }, 'swept');
      })
      .catch((error: unknown) => {
        // Storage out of reach is said without a stack, as for requests (the next sweep retries).
        const storage = storageFailureOf(error);
        if (storage) deps.logger.error(causeOf(error), `sweep failed: storage ${storage}`);
        else deps.logger.error({ err: error }, 'sweep failed');
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(look, SWEEP.lookEveryMs);
  timer.unref();
  look();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
