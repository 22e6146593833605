/**
 * In-process word that a project's editing state changed: its lock (taken, renewed, released),
 * a draft of one of its pages (opened, operated on, undone, redone, discarded, saved) or its saved
 * revision. Listeners (the page event streams) read the state again at once; a change made by
 * another process reaches them by their periodic re-check instead.
 */
export class EditingSignals {
  readonly #listeners = new Set<(projectId: string) => void>();

  changed(projectId: string): void {
    for (const listener of this.#listeners) listener(projectId);
  }

  /** Calls `listener` with the project of every change; returns the function that stops it. */
  listen(listener: (projectId: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
