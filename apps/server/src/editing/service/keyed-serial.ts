/**
 * Runs tasks one after another per key (and concurrently across keys). Requests on one draft
 * then never interleave inside this process; across processes the store's compare-and-set on
 * the draft token decides.
 */
export class KeyedSerial {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
