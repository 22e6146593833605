import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import type { FailedMessage, PrimaryMessage, WorkerMessage } from './messages.js';
import { ours } from './messages.js';

/** A worker that died is replaced after this pause, doubled while replacements die young. */
const RESPAWN_PAUSE_MS = 250;
const RESPAWN_PAUSE_MAX_MS = 10_000;
/** A worker that lived this long reset the pause: it was not a crash loop. */
const HEALTHY_AFTER_MS = 30_000;

/** A worker's start failed: its message and code, as the worker reported them. */
export class WorkerStartFailure extends Error {
  readonly code: string | undefined;
  readonly syscall: string | undefined;
  constructor(failed: Omit<FailedMessage, 'galley'>) {
    super(failed.message);
    this.name = 'WorkerStartFailure';
    this.code = failed.code;
    this.syscall = failed.syscall;
  }
}

export interface Supervisor {
  /** Resolves with the URL once every first worker listens; rejects when one fails to start. */
  readonly listening: Promise<string>;
  /** Tells every worker to stop gracefully (open requests finish); resolves once all exited. */
  stop(): Promise<void>;
  /** Ends every worker at once (a second stop signal). */
  kill(): void;
}

/**
 * The primary process of `galley serve` with several workers: it forks `count` workers (each runs
 * the same command, and in a worker serves), counts the rate limits of all of them (SQLite; on
 * PostgreSQL they count in the database), sums their metrics for `GET /metrics`, replaces a
 * worker that dies (and logs it), and stops them all gracefully on `stop`.
 */
export function superviseWorkers(options: { count: number; logger: Logger }): Supervisor {
  const { count, logger } = options;
  new RateLimiterClusterMaster();
  const aggregator = new AggregatorRegistry();
  const own = primaryMetrics();
  let stopping = false;
  let pause = RESPAWN_PAUSE_MS;
  const exited = new Set<Promise<void>>();
  /** Workers that said they listen: they have heard of stops since (see serveAsWorker). */
  const listening = new Set<Worker>();
  let started = 0;
  let settle: { resolve(url: string): void; reject(error: Error): void };
  const allListening = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  allListening.catch(() => undefined); // a failure is answered to whoever awaits it

  const fork = (first: boolean) => {
    const worker = cluster.fork();
    const bornAt = Date.now();
    exited.add(
      new Promise<void>((resolve) => worker.once('exit', () => resolve())).then(() => undefined),
    );
    worker.on('message', (raw: unknown) => {
      const message = ours<WorkerMessage>(raw);
      if (message?.galley === 'listening') {
        listening.add(worker);
        // A worker still starting when the stop came could not hear it: tell it now that it can.
        if (stopping) send(worker, { galley: 'stop' });
        if (first && ++started === count) settle.resolve(message.url);
        if (!first) logger.info({ worker: worker.process.pid }, 'worker replaced; it listens');
      } else if (message?.galley === 'failed') {
        settle.reject(new WorkerStartFailure(message));
      } else if (message?.galley === 'gather') {
        void gather(aggregator, own.registry).then(
          (text) => send(worker, { galley: 'metrics', id: message.id, text }),
          (error: unknown) =>
            send(worker, { galley: 'metrics', id: message.id, error: String(error) }),
        );
      }
    });
    worker.once('exit', (code, signal) => {
      const listened = listening.delete(worker);
      if (stopping) return;
      if (first && !listened) {
        settle.reject(new WorkerStartFailure({ message: `a worker exited at start (${code})` }));
        return;
      }
      own.restarts.inc();
      pause = Date.now() - bornAt > HEALTHY_AFTER_MS ? RESPAWN_PAUSE_MS : pause;
      logger.error(
        { worker: worker.process.pid, code, signal, respawnInMs: pause },
        'worker died; starting another',
      );
      setTimeout(() => {
        if (!stopping) fork(false);
      }, pause).unref();
      pause = Math.min(pause * 2, RESPAWN_PAUSE_MAX_MS);
    });
  };
  for (let i = 0; i < count; i++) fork(true);
  own.workers.set(count);

  return {
    listening: allListening,
    stop: async () => {
      stopping = true;
      for (const worker of listening) send(worker, { galley: 'stop' });
      await Promise.all(exited);
    },
    kill: () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    },
  };
}

function send(worker: Worker, message: PrimaryMessage): void {
  // A worker that is gone (it died meanwhile) has nothing to be told.
  if (worker.isConnected()) worker.send(message, () => undefined);
}

/** Every worker's metrics summed (prom-client's aggregation), then the primary's own. */
async function gather(
  aggregator: Pick<AggregatorRegistry<never>, 'clusterMetrics'>,
  own: Registry,
): Promise<string> {
  const [workers, primary] = await Promise.all([aggregator.clusterMetrics(), own.metrics()]);
  return `${workers}\n${primary}`;
}

function primaryMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    workers: new Gauge({
      name: 'galley_workers',
      help: 'Worker processes the primary keeps running.',
      registers,
    }),
    restarts: new Counter({
      name: 'galley_worker_restarts_total',
      help: 'Workers that died and were replaced.',
      registers,
    }),
  };
}
