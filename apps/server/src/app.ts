import express from 'express';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { editingRoutes } from '@galley/core';
import type { Clock, Store } from '@galley/store';
import { authenticate, requireAuth } from './auth/authenticate.js';
import { authRouter } from './auth/routes.js';
import type { ServerConfig } from './config.js';
import type { Deps } from './deps.js';
import { EventHub } from './events/hub.js';
import { mcpRoute } from './mcp/route.js';
import type { Resolve } from './webhooks/address-guard.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { answerHeaders } from './http/answer-headers.js';
import { refuseBadRequestHead } from './http/client-error.js';
import { errorHandler, notFound } from './http/errors.js';
import { healthRoutes } from './http/health.js';
import { createLogger, requestLogger } from './http/logging.js';
import { rateLimiter } from './http/rate-limit.js';
import { WorkPool } from './pool/work-pool.js';
import { ServiceMetrics } from './metrics/metrics.js';
import { metricsRoute, noteMount, requestMetrics } from './metrics/route.js';
import { ApiRouter } from './openapi/api-router.js';
import { ApiRegistry } from './openapi/registry.js';
import { schemaRoute } from './openapi/schema-route.js';
import { screenRouter } from './screen/index.js';
import { editingRouter } from './editing/index.js';
import { assetRouter } from './assets/index.js';

/** What the service calls itself in MCP's `initialize`. */
const SERVER_VERSION = '0.1.0';

export interface AppOptions {
  store: Store;
  clock: Clock;
  config: ServerConfig;
  logger?: Logger;
  /** How host names are looked up (webhook URLs, at registration and at each try); node:dns. */
  resolve?: Resolve;
}

export interface GalleyApp {
  app: Express;
  deps: Deps;
  registries: { v1: ApiRegistry; v2: ApiRegistry };
  /** Ends the answers that stay open (event streams): the server is stopping. */
  stop(): Promise<void>;
  /** `stop`, then the routers' close hooks (the store is closed by whoever opened it). */
  close(): Promise<void>;
}

/**
 * The whole HTTP service: cross-cutting middleware, `/healthz` and `/readyz`, `/auth`, `/api/v1`, `/api/v2`,
 * the screen, and problem answers for everything that goes wrong.
 */
export function createApp(options: AppOptions): GalleyApp {
  const { store, clock, config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = new ServiceMetrics();
  metrics.database(store);
  const closeHooks: Array<() => void | Promise<void>> = [];
  const stopHooks: Array<() => void | Promise<void>> = [];
  const pool = new WorkPool({ threads: config.poolThreads, inlineBytes: config.poolInlineBytes });
  pool.onTask = metrics.workerPool('work', { queueSize: () => pool.load.queued });
  closeHooks.push(() => pool.close());
  const events = new EventHub({
    store,
    logger,
    databaseUrl: store.options.kind === 'postgres' ? store.options.url : null,
    onDeliveries: () => webhooks.wake(),
  });
  closeHooks.push(() => events.close());
  const webhooks = new WebhookDispatcher({
    store,
    logger,
    allowPrivate: config.webhooksAllowPrivate,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    retryDelaysMs: config.webhookRetrySeconds.map((seconds) => seconds * 1000),
    timeoutMs: config.webhookTimeoutSeconds * 1000,
  });
  closeHooks.push(() => webhooks.close());
  const deps: Deps = {
    store,
    clock,
    config,
    logger,
    pool,
    metrics,
    events,
    webhooks,
    onClose: (fn) => void closeHooks.push(fn),
    onStop: (fn) => void stopHooks.push(fn),
  };
  const registries = {
    v1: new ApiRegistry(
      { title: 'Galley editing interface', version: '1' },
      `${config.baseUrl}/api/v1`,
    ),
    v2: new ApiRegistry(
      { title: 'Galley asset interface', version: '2' },
      `${config.assetBaseUrl}/api/v2`,
    ),
  };

  const app = express();
  app.disable('x-powered-by');
  // Answers are `no-store`: a computed ETag per JSON answer is work no cache uses. Files set their own.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  // Paths are case-sensitive (RFC 3986): `/API/v1` is not the API, and gets none of its headers.
  app.set('case sensitive routing', true);
  app.use(requestLogger(logger));
  app.use(requestMetrics(metrics));
  app.use(answerHeaders({ https: config.baseUrl.startsWith('https:') }));
  app.use(refuseBadRequestHead);

  healthRoutes(app, store);
  app.use(authenticate(deps));
  metricsRoute(app, { metrics, metricsToken: config.metricsToken });
  app.use(rateLimiter({ perMinute: config.rateLimitPerMinute, store, metrics }));
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(registries.v1.document());
  });
  app.get('/api/v2/openapi.json', (_req, res) => {
    res.json(registries.v2.document());
  });
  app.use('/auth', noteMount, authRouter(deps));
  // What anyone may read beside the OpenAPI document: the JSON Schemas (project.json's). Mounted
  // before the interface's authentication, declared after its routes (last in the document).
  const v1Public = new ApiRouter({
    routes: editingRoutes,
    registry: registries.v1,
    jsonLimitBytes: config.jsonLimitBytes,
  });
  app.use('/api/v1', v1Public.router);
  app.use('/api/v1', noteMount, requireAuth, editingRouter({ ...deps, registry: registries.v1 }));
  schemaRoute(v1Public);
  app.use('/api/v2', noteMount, requireAuth, assetRouter({ ...deps, registry: registries.v2 }));
  mcpRoute(app, deps, SERVER_VERSION);
  app.use(screenRouter(deps));
  app.use(
    notFound((path) => {
      for (const [mount, registry] of [
        ['/api/v1', registries.v1],
        ['/api/v2', registries.v2],
      ] as const) {
        if (path.startsWith(`${mount}/`)) return registry.methodsAt(path.slice(mount.length));
      }
      return [];
    }),
  );
  app.use(errorHandler(logger));

  const stop = async () => {
    for (const hook of stopHooks.splice(0).reverse()) await hook();
  };
  return {
    app,
    deps,
    registries,
    stop,
    close: async () => {
      await stop();
      for (const hook of closeHooks.reverse()) await hook();
    },
  };
}
