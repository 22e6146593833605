import type { Clock, Store } from '@galley/store';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import type { WorkPool } from './pool/work-pool.js';
import type { ServiceMetrics } from './metrics/metrics.js';
import type { EventHub } from './events/hub.js';
import type { WebhookDispatcher } from './webhooks/dispatcher.js';
import type { ApiRegistry } from './openapi/registry.js';

/** What every router and background task is built from. */
export interface Deps {
  store: Store;
  /** The one time source (tests inject a TestClock); the store uses the same one. */
  clock: Clock;
  config: ServerConfig;
  logger: Logger;
  /** Worker threads for work that would hold the event loop (folder intake, large drafts). */
  pool: WorkPool;
  /** This process's metrics (`GET /metrics`): services register what they count. */
  metrics: ServiceMetrics;
  /** The process's one source of events (streams, page streams, webhooks follow it). */
  events: EventHub;
  /** Sends webhook deliveries (one claim per row across processes). */
  webhooks: WebhookDispatcher;
  /** Registers work to do when the server closes (stop sweepers, flush caches). */
  onClose(fn: () => void | Promise<void>): void;
  /**
   * Registers work to do as soon as the server stops taking requests, before it waits for the
   * open ones to finish: end answers that would otherwise stay open (event streams).
   */
  onStop(fn: () => void | Promise<void>): void;
}

/** Deps of an interface router (v1, v2): its routes are declared in its own OpenAPI registry. */
export interface ApiDeps extends Deps {
  registry: ApiRegistry;
}
