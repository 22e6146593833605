import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Store } from '@galley/store';

/** Seconds: from a cached read (~0.1 ms) to a big folder's upload (tens of seconds). */
const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];
/** Seconds of one query or one pooled task: the same range, finer at the short end. */
const SHORT_BUCKETS = [0.0001, 0.00025, ...DURATION_BUCKETS];

/** What a draft cache reports (DraftService.cacheStats). */
export interface CacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

/** One finished task of a worker pool: how long it waited for a thread, how long it ran. */
export interface PoolTaskTiming {
  task: string;
  waitSeconds: number;
  runSeconds: number;
}

/** What a worker pool hands to `ServiceMetrics.workerPool`. */
export interface WorkerPoolProbe {
  /** Tasks waiting for a thread now. */
  queueSize(): number;
}

/**
 * The metrics of one server process (one app), in its own registry: `GET /metrics` answers them,
 * summed over the processes of the service by the cluster's primary (see metrics/route.ts).
 * Metrics read from elsewhere at scrape time (caches, the database pool) are gauges with a
 * `collect`; counters kept elsewhere are set from their running totals the same way.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requests: Histogram<'method' | 'route' | 'status'>;
  readonly rateLimitRefusals: Counter;
  readonly #poolWait: Histogram<'pool' | 'task'>;
  readonly #poolRun: Histogram<'pool' | 'task'>;
  readonly #poolQueues = new Map<string, WorkerPoolProbe>();
  #gather: () => Promise<string> = () => this.registry.metrics();

  constructor() {
    const registers = [this.registry];
    // Process figures, event-loop delay among them (nodejs_eventloop_lag_*_seconds).
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'galley_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer ending, by route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.rateLimitRefusals = new Counter({
      name: 'galley_rate_limit_refusals_total',
      help: 'Requests refused with 429 rate_limited.',
      registers,
    });
    this.#poolWait = new Histogram({
      name: 'galley_worker_pool_wait_seconds',
      help: 'Time a task waited in a worker pool queue for a thread.',
      labelNames: ['pool', 'task'],
      buckets: SHORT_BUCKETS,
      registers,
    });
    this.#poolRun = new Histogram({
      name: 'galley_worker_pool_run_seconds',
      help: 'Time a task of a worker pool ran on its thread.',
      labelNames: ['pool', 'task'],
      buckets: SHORT_BUCKETS,
      registers,
    });
    const queues = this.#poolQueues;
    new Gauge({
      name: 'galley_worker_pool_queue_size',
      help: 'Tasks waiting for a thread of a worker pool.',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const [pool, probe] of queues) this.set({ pool }, probe.queueSize());
      },
    });
  }

  /** The text `GET /metrics` answers: this process's metrics, or the whole service's. */
  gather(): Promise<string> {
    return this.#gather();
  }

  /** In a cluster worker: gathers through the primary, which sums every worker's metrics. */
  gatherWith(gather: () => Promise<string>): void {
    this.#gather = gather;
  }

  /**
   * Registers a worker pool (the server's piscina pool, or any other): its queue is read at each
   * scrape, and the returned function records each finished task's wait and run times.
   */
  workerPool(pool: string, probe: WorkerPoolProbe): (timing: PoolTaskTiming) => void {
    this.#poolQueues.set(pool, probe);
    return ({ task, waitSeconds, runSeconds }) => {
      this.#poolWait.observe({ pool, task }, waitSeconds);
      this.#poolRun.observe({ pool, task }, runSeconds);
    };
  }

  /** The database: every query's time, and PostgreSQL's pool (connections in use, waiting). */
  database(store: Store): void {
    const registers = [this.registry];
    const queries = new Histogram({
      name: 'galley_db_query_duration_seconds',
      help: 'Time of each database query, by outcome (ok, failed).',
      labelNames: ['outcome'],
      buckets: SHORT_BUCKETS,
      registers,
    });
    store.telemetry.onQuery(({ seconds, failed }) =>
      queries.observe({ outcome: failed ? 'failed' : 'ok' }, seconds),
    );
    new Gauge({
      name: 'galley_db_pool_connections',
      help: 'PostgreSQL connections of the pool by state (open, idle), and requests waiting for one.',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = store.telemetry.pool();
        if (!pool) return; // SQLite: one connection, no pool
        this.set({ state: 'open' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }

  /** The parsed drafts kept in memory (DraftService). */
  draftCache(read: () => CacheStats): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, of: (s: CacheStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(of(read()));
        },
      });
    const counter = (name: string, help: string, of: (s: CacheStats) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(of(read()));
        },
      });
    gauge('galley_draft_cache_entries', 'Parsed drafts kept in memory.', (s) => s.entries);
    gauge('galley_draft_cache_bytes', 'Estimated bytes of the drafts in memory.', (s) => s.bytes);
    counter('galley_draft_cache_hits_total', 'Draft reads served from memory.', (s) => s.hits);
    counter(
      'galley_draft_cache_misses_total',
      'Draft reads rebuilt from the store (absent, evicted, or changed by another process).',
      (s) => s.misses,
    );
    counter(
      'galley_draft_cache_evictions_total',
      'Drafts dropped from memory to stay within its bound.',
      (s) => s.evictions,
    );
  }
}
