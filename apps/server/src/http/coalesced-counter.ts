import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

interface Waiter {
  resolve(outcome: RateLimiterRes): void;
  reject(reason: unknown): void;
}

/**
 * A process's requests for one key, counted one write at a time. While a key's count is on its
 * way to the shared counter (PostgreSQL's `rate_limits` row), the requests for that key that
 * arrive wait, and are then counted together: n points in one write, each request given its own
 * place in that count. So the outcomes are those of counting the requests one by one in arrival
 * order (the same budget, the same 429s, the same `RateLimit-Remaining`), but a busy key's row
 * takes one write per batch instead of one per request, and a process's requests no longer queue
 * on that row's lock, each holding a connection, one behind the other.
 */
export class CoalescedCounter {
  readonly #counter: RateLimiterAbstract;
  readonly #waiting = new Map<string, Waiter[]>();
  readonly #counting = new Set<string>();

  constructor(counter: RateLimiterAbstract) {
    this.#counter = counter;
  }

  /** Resolves when the request is within the budget; rejects with a RateLimiterRes when not. */
  consume(key: string): Promise<RateLimiterRes> {
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.#waiting.set(key, [{ resolve, reject }]);
      if (!this.#counting.has(key)) void this.#count(key);
    });
  }

  async #count(key: string): Promise<void> {
    this.#counting.add(key);
    try {
      for (let batch = this.#take(key); batch.length > 0; batch = this.#take(key)) {
        await this.#countBatch(key, batch);
      }
    } finally {
      this.#counting.delete(key);
    }
  }

  #take(key: string): Waiter[] {
    const batch = this.#waiting.get(key) ?? [];
    this.#waiting.delete(key);
    return batch;
  }

  async #countBatch(key: string, batch: Waiter[]): Promise<void> {
    const budget = this.#counter.points;
    let counted: RateLimiterRes;
    try {
      counted = await this.#counter.consume(key, batch.length);
    } catch (refused) {
      // Refused before counting (the key is blocked in memory), or failed: all alike.
      if (!(refused instanceof RateLimiterRes) || refused.consumedPoints <= budget) {
        for (const waiter of batch) waiter.reject(refused);
        return;
      }
      counted = refused;
    }
    // The count before this batch, then each request's own place after it.
    const before = counted.consumedPoints - batch.length;
    for (const [index, waiter] of batch.entries()) {
      const consumed = before + index + 1;
      const outcome = new RateLimiterRes(
        Math.max(0, budget - consumed),
        counted.msBeforeNext,
        consumed,
      );
      if (consumed <= budget) waiter.resolve(outcome);
      else waiter.reject(outcome);
    }
  }
}
