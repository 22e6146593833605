import cluster from 'node:cluster';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { CompiledQuery } from 'kysely';
import {
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Store } from '@galley/store';
import { maybeAuth } from '../auth/context.js';
import { CoalescedCounter } from './coalesced-counter.js';
import type { ServiceMetrics } from '../metrics/metrics.js';
import { problemOf } from './problem.js';

const WINDOW_SECONDS = 60;
/** The counters' names in their store (the `rate_limits` table, the primary's memory). */
const KEY_PREFIX = 'galley';
/** How long a cluster worker waits for the primary's count before the request fails. */
const CLUSTER_TIMEOUT_MS = 5_000;

/**
 * The counters of the whole service, wherever its processes run:
 * - PostgreSQL: the `rate_limits` table (migration 009), shared by every process on every host;
 *   a process counts its concurrent requests for one key in one write (coalesced-counter.ts), and
 *   a key past its budget is then refused from memory until its window ends, so a flood of
 *   refused requests costs the database nothing.
 * - SQLite, several worker processes: the cluster's primary counts for all of them (over IPC),
 *   which keeps a write per request away from the database's one write lock; a worker sends its
 *   concurrent requests for one key as one count too (coalesced-counter.ts): a message each way
 *   per request cost the worker and the primary more CPU than the request's own work.
 * - SQLite, one process: its memory.
 */
function counterFor(store: Store, points: number): Pick<RateLimiterAbstract, 'consume'> {
  const options = { points, duration: WINDOW_SECONDS, keyPrefix: KEY_PREFIX };
  if (store.kind === 'postgres') {
    return postgresCounter(queryClient(store), points);
  }
  if (cluster.isWorker)
    return new CoalescedCounter(
      new RateLimiterCluster({ ...options, timeoutMs: CLUSTER_TIMEOUT_MS }),
    );
  return new RateLimiterMemory(options);
}

/** node-postgres's `query`, as RateLimiterPostgres calls it. */
export interface QueryClient {
  query(query: {
    text: string;
    values?: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** The service's counters in the `rate_limits` table that `client` reaches, `points` a minute. */
export function postgresCounter(client: QueryClient, points: number): CoalescedCounter {
  return new CoalescedCounter(
    new RateLimiterPostgres({
      points,
      duration: WINDOW_SECONDS,
      keyPrefix: KEY_PREFIX,
      storeClient: client,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      inMemoryBlockOnConsumed: points,
    }),
  );
}

/** node-postgres's `query({text, values})`, as RateLimiterPostgres calls it, on the store's pool. */
function queryClient(store: Store): QueryClient {
  return {
    query: async (query: { text: string; values?: unknown[] }) => {
      const { rows } = await store.db.executeQuery(CompiledQuery.raw(query.text, query.values));
      return { rows, rowCount: rows.length };
    },
  };
}

/**
 * `perMinute` requests a minute per credential (token or screen session), per IP address for
 * requests without a valid one, counted for the whole service (see `counterFor`). Runs after
 * `authenticate`. Every answer carries the `RateLimit-Limit/-Remaining/-Reset/-Policy` headers;
 * 429 also `Retry-After`.
 */
export function rateLimiter(options: {
  perMinute: number;
  store: Store;
  metrics: ServiceMetrics;
}): RequestHandler {
  const { perMinute, metrics } = options;
  const limiter = counterFor(options.store, perMinute);
  const policy = `${perMinute};w=${WINDOW_SECONDS}`;
  const limit = String(perMinute);
  return async (req, res, next) => {
    let outcome: RateLimiterRes;
    try {
      outcome = await limiter.consume(keyOf(req));
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const reset = setHeaders(res, refused);
      res.setHeader('Retry-After', reset);
      metrics.rateLimitRefusals.inc();
      throw problemOf('rate_limited', { detail: `More than ${perMinute} requests a minute.` });
    }
    setHeaders(res, outcome);
    next();
  };

  function setHeaders(res: Response, outcome: RateLimiterRes): string {
    const reset = String(Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)));
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', String(outcome.remainingPoints));
    res.setHeader('RateLimit-Reset', reset);
    return reset;
  }
}

function keyOf(req: Request): string {
  const auth = maybeAuth(req);
  if (auth?.via === 'token') return `token:${auth.tokenId}`;
  if (auth?.via === 'session') return `session:${auth.sessionKey}`;
  return `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`;
}
