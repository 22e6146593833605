interface Entry<K, V> {
  key: K;
  value: V;
  weight: number;
  /** Neighbours in recency order: `older` towards the least recently used. */
  older: Entry<K, V> | null;
  newer: Entry<K, V> | null;
}

/**
 * A least-recently-used map bounded by total weight (an estimate of bytes held). Adding past the
 * bound evicts the least recently used entries; an entry heavier than the bound is not kept.
 *
 * Recency is a linked list beside the Map, so a read moves pointers, not keys. Moving a key to the
 * end of the Map's order on every read (delete, then set) left a deleted entry in that key's hash
 * chain each time, which V8 walks until the table is rebuilt: reading one key of 5,000 again and
 * again (every operation on one draft, every read of one file) cost 15 µs a read.
 */
export class WeightedLru<K, V> {
  readonly #entries = new Map<K, Entry<K, V>>();
  readonly #maxWeight: number;
  #weight = 0;
  #evictions = 0;
  #oldest: Entry<K, V> | null = null;
  #newest: Entry<K, V> | null = null;

  constructor(maxWeight: number) {
    this.#maxWeight = maxWeight;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#unlink(entry);
    this.#append(entry);
    return entry.value;
  }

  set(key: K, value: V, weight: number): void {
    if (weight > this.#maxWeight) {
      this.delete(key);
      return;
    }
    let entry = this.#entries.get(key);
    if (entry) {
      // Replaced in place: the key stays in the Map (see above).
      this.#weight += weight - entry.weight;
      entry.value = value;
      entry.weight = weight;
      this.#unlink(entry);
    } else {
      entry = { key, value, weight, older: null, newer: null };
      this.#entries.set(key, entry);
      this.#weight += weight;
    }
    this.#append(entry);
    while (this.#weight > this.#maxWeight && this.#oldest) {
      this.delete(this.#oldest.key);
      this.#evictions += 1;
    }
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#unlink(entry);
    this.#weight -= entry.weight;
  }

  get size(): number {
    return this.#entries.size;
  }

  get weight(): number {
    return this.#weight;
  }

  /** Entries dropped to stay within the bound, since the start. */
  get evictions(): number {
    return this.#evictions;
  }

  #unlink(entry: Entry<K, V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    entry.older = null;
    entry.newer = null;
  }

  #append(entry: Entry<K, V>): void {
    entry.older = this.#newest;
    if (this.#newest) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
  }
}
