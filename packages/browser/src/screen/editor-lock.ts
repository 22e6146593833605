import { EDITING_ROOT, editingPaths, pathOf } from '@galley/core';
import type { Failure } from '../result.js';
import { library } from './library.js';
import type { Client } from './library.js';
import { csrfToken, editorClientId } from './session.js';

/** Who holds the lock according to a 423 answer (decisions §3). */
export interface HeldLock {
  readonly kind: string;
  readonly label: string;
  readonly holder: { readonly name: string };
  readonly expires_at: string;
}

export type LockState =
  | { readonly kind: 'held' }
  | { readonly kind: 'other'; readonly lock: HeldLock }
  /** The lock cannot be had at all (a viewer's 403, a missing project) or the service is away. */
  | { readonly kind: 'refused'; readonly failure: Failure }
  /** A viewer's editor, which never asks for the lock. */
  | { readonly kind: 'viewer' };

/** Decisions §3: renew every 20 s, a third of the 60 s time-to-live, so one lost request is harmless. */
export const RENEW_EVERY_MS = 20_000;

/**
 * Takes the project's lock as this tab (`kind: "screen"`), renews it every 20 s, and keeps trying
 * while another client holds it, so the editor becomes writable as soon as the lock is free.
 */
export class LockKeeper {
  private timer: ReturnType<typeof setInterval> | undefined;
  private state: LockState | undefined;
  private paused = false;

  constructor(
    private readonly client: Client,
    private readonly projectId: string,
    private readonly label: string,
    private readonly onChange: (state: LockState) => void | Promise<void>,
  ) {}

  get holding(): boolean {
    return this.state?.kind === 'held';
  }

  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    addEventListener('pagehide', () => this.release());
  }

  /**
   * Stops asking for the lock while another client holds it, until `resume`: a lock let go with
   * unsaved changes waits for this tab's person, not for its timer.
   */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    clearInterval(this.timer);
  }

  /** Asks for the lock every 20 s again, after a `pause`. */
  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
  }

  async renew(): Promise<void> {
    const taken = await library().attempt(() =>
      this.client.v1.lock(this.projectId, { kind: 'screen', label: this.label }),
    );
    const next = taken.ok ? ({ kind: 'held' } as const) : stateOf(taken.failure);
    if (next.kind === 'refused' && next.failure.kind === 'http' && next.failure.status !== 429)
      clearInterval(this.timer);
    const changed = JSON.stringify(next) !== JSON.stringify(this.state);
    this.state = next;
    if (changed) await this.onChange(next);
  }

  /** Lets the lock go when the tab goes away (keepalive: the request outlives the page). */
  release(): void {
    clearInterval(this.timer);
    if (!this.holding) return;
    this.state = undefined;
    void fetch(`${EDITING_ROOT}${pathOf(editingPaths.releaseLock, { id: this.projectId })}`, {
      method: 'DELETE',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'x-csrf-token': csrfToken(), 'x-editor-client': editorClientId() },
    }).catch(() => undefined);
  }
}

function stateOf(failure: Failure): LockState {
  if (failure.kind === 'http' && failure.status === 423 && 'lock' in failure.problem)
    return { kind: 'other', lock: failure.problem.lock as HeldLock };
  return { kind: 'refused', failure };
}
