/**
 * Contents that requests of this process are about to reference. A refused write releases the
 * bytes it added only if no other running write holds them: two writes of the same new content
 * must not have the loser delete what the winner commits.
 */
export class ContentPins {
  readonly #counts = new Map<string, number>();

  /** Holds the contents until the returned function is called (once; later calls do nothing). */
  hold(sha256s: readonly string[]): () => void {
    for (const sha256 of sha256s) this.#counts.set(sha256, (this.#counts.get(sha256) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const sha256 of sha256s) {
        const left = (this.#counts.get(sha256) ?? 1) - 1;
        if (left > 0) this.#counts.set(sha256, left);
        else this.#counts.delete(sha256);
      }
    };
  }

  held(sha256: string): boolean {
    return this.#counts.has(sha256);
  }
}
