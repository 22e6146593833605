import type { RevisionState, Store } from '@galley/store';
import { WeightedLru } from '../../weighted-lru.js';

/** Rough bytes a parsed manifest entry or page entry holds in memory. */
const ENTRY_WEIGHT = 256;

/**
 * Parsed revision states by (project, revision). A saved revision never changes, so a cached
 * state is never stale, in this process or any other sharing the store.
 */
export class RevisionStates {
  readonly #store: Store;
  readonly #cache: WeightedLru<string, RevisionState>;

  constructor(store: Store, maxBytes: number) {
    this.#store = store;
    this.#cache = new WeightedLru(maxBytes);
  }

  async get(projectId: string, revision: number): Promise<RevisionState> {
    const key = `${projectId}/${revision}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const state = await this.#store.projectRevisions.state(projectId, revision);
    if (!state) throw new Error(`revision ${revision} of ${projectId} is missing`);
    this.remember(state);
    return state;
  }

  remember(state: RevisionState): void {
    const weight = (state.manifest.size + state.pages.length + 1) * ENTRY_WEIGHT;
    this.#cache.set(`${state.projectId}/${state.revision}`, state, weight);
  }
}
