import type { Clock, LockHolder, LockRecord, Store } from '@galley/store';
import { isoTime } from '@galley/store';
import { LOCK_TTL_SECONDS, lockBody } from '../present.js';
import { lockHeld } from '../problems.js';
import type { EditingSignals } from './editing-signals.js';

interface Deps {
  store: Store;
  clock: Clock;
  signals: EditingSignals;
}

/**
 * Takes the project's lock for `holder`, or renews it (a lock is kept by renewing it within
 * 60 s); 423 while another holds it.
 */
export async function takeLock(
  deps: Deps,
  projectId: string,
  holder: LockHolder,
  input: { kind: LockRecord['kind']; label: string },
): Promise<LockRecord> {
  const asked = isoTime(deps.clock.now());
  const taken = await deps.store.projectLocks.acquire({
    projectId,
    holder,
    ...input,
    ttlSeconds: LOCK_TTL_SECONDS,
  });
  if (!taken.ok) throw lockHeld(taken.held);
  // A renewal keeps the time the lock was taken: only a lock taken now is news.
  if (taken.lock.acquiredAt >= asked) {
    deps.signals.changed(projectId, { kind: 'lock.taken', data: { lock: lockBody(taken.lock) } });
  }
  return taken.lock;
}

/** Lets the holder's lock go (nothing to do when there is none); 423 while another holds it. */
export async function releaseLock(
  deps: Deps,
  projectId: string,
  holder: LockHolder,
): Promise<void> {
  const released = await deps.store.projectLocks.release(projectId, holder);
  if (!released.ok) throw lockHeld(released.held);
  if (released.released) deps.signals.changed(projectId, { kind: 'lock.released', data: {} });
}
