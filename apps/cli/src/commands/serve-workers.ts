import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Deps, ServerConfig } from '@galley/server';
import type { Store, StoreOptions } from '@galley/store';

/** What every process of `galley serve` starts from: the same settings, read the same way. */
export interface ServiceStart {
  config: ServerConfig;
  storeOptions: StoreOptions;
  /** Port 0 without a base URL: the address listened on is the base URL. */
  baseUrlFromListen: boolean;
}

/** The running service, as the command that started it sees it. */
export interface Service {
  /** `http://host:port` listened on. */
  url: string;
  logger: Deps['logger'];
  /** Stops serving gracefully: open requests finish, in every process (the store stays open). */
  stop(): Promise<void>;
  /** Stops at once (a second stop signal). */
  abort(): never;
}

/**
 * Serves in this process (`workers` 1), or forks `workers` processes that serve on the same port
 * and supervises them (node:cluster; see superviseWorkers): resolves once every one listens.
 */
export async function startService(start: ServiceStart & { store: Store }): Promise<Service> {
  const { config, store, baseUrlFromListen } = start;
  const { createLogger, startServer, superviseWorkers } = await import('@galley/server');
  const { systemClock } = await import('@galley/store');
  if (config.workers === 1) {
    const running = await startServer({ store, clock: systemClock, config, baseUrlFromListen });
    return {
      url: running.url,
      logger: running.app.deps.logger,
      stop: () => running.close(),
      abort: () => process.exit(1),
    };
  }
  const logger = createLogger(config.logLevel);
  // The workers are one service behind one address: a preview pass one issues, another accepts.
  // Without a secret set, they share one made here (each worker reads it from its environment).
  if (config.previewSecret === null) {
    process.env.GALLEY_PREVIEW_SECRET = randomBytes(32).toString('base64url');
  }
  const supervisor = superviseWorkers({ count: config.workers, logger });
  const url = await supervisor.listening.catch(async (error: unknown) => {
    await supervisor.stop();
    throw error;
  });
  return {
    url,
    logger,
    stop: () => supervisor.stop(),
    abort: () => {
      supervisor.kill();
      process.exit(1);
    },
  };
}

/**
 * In a worker process of `galley serve` (node:cluster ran the same command again): serves until
 * the primary asks it to stop (or is gone), or a signal comes (Ctrl-C reaches every process; a
 * second signal stops it at once), and answers true. Elsewhere answers false at once. A failed
 * start is told to the primary, which says why and exits.
 */
export async function serveAsWorker(start: ServiceStart): Promise<boolean> {
  if (!cluster.isWorker) return false;
  const { startServer, workerLink } = await import('@galley/server');
  const { openStore, systemClock } = await import('@galley/store');
  const link = workerLink();
  let store: Store | undefined;
  try {
    store = await openStore(start.storeOptions);
    const running = await startServer({
      store,
      clock: systemClock,
      config: start.config,
      baseUrlFromListen: start.baseUrlFromListen,
    });
    const opened = store;
    let stopping = false;
    const stop = (signal?: string) => {
      if (stopping) {
        if (signal) process.exit(1);
        return;
      }
      stopping = true;
      running.app.deps.logger.info({ signal: signal ?? 'primary' }, 'stopping');
      void running
        .close()
        .then(() => opened.close())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    link.onStop(() => stop());
    link.shareMetrics(running.app.deps.metrics);
    link.listening(running.url);
  } catch (error) {
    link.failed(error);
    await store?.close().catch(() => undefined);
    process.exit(1);
  }
  return true;
}
