/**
 * A least-recently-used map bounded by total weight (an estimate of bytes held). Adding past the
 * bound evicts the least recently used entries; an entry heavier than the bound is not kept.
 */
export class WeightedLru<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  readonly #maxWeight: number;
  #weight = 0;

  constructor(maxWeight: number) {
    this.#maxWeight = maxWeight;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Re-inserting moves the key to the end of the Map's order: the most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight: number): void {
    this.delete(key);
    if (weight > this.#maxWeight) return;
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#weight <= this.#maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }

  get size(): number {
    return this.#entries.size;
  }

  get weight(): number {
    return this.#weight;
  }
}
