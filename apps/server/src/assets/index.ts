// The asset interface (/api/v2): asset-api-v2.md as settled by decisions §6 and §8.
import { assetRoutes as assetRouteTable, events } from '@galley/core';
import type { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { eventStreamRoute } from '../events/routes.js';
import { EventStreams } from '../events/streams.js';
import { ApiRouter } from '../openapi/api-router.js';
import { webhookRoutes } from '../webhooks/routes.js';
import type { AssetContext } from './context.js';
import { assetRoutes } from './routes/assets.js';
import { blobRoutes } from './routes/blobs.js';
import { callerOf } from './routes/caller.js';
import { fileRoutes } from './routes/files.js';
import { lifecycleRoutes } from './routes/lifecycle.js';
import { revisionRoutes } from './routes/revisions.js';
import { ContentFactsMemo } from './service/content-facts.js';
import { ContentLoader } from './service/content-loader.js';
import { ContentPins } from './service/content-pins.js';
import { RevisionFilesMemo } from './service/revision-files.js';
import { Idempotency } from './service/run-once.js';
import { seedServiceFonts } from './service/seed-fonts.js';
import { startSweeper } from './service/sweeper.js';

export function assetRouter(deps: ApiDeps): Router {
  const ctx: AssetContext = {
    ...deps,
    idempotency: new Idempotency(deps.store),
    loader: new ContentLoader(deps.store.bytes),
    facts: new ContentFactsMemo(),
    pins: new ContentPins(),
    revisionFiles: new RevisionFilesMemo(),
    apiUrl: `${deps.config.assetBaseUrl}/api/v2`,
  };
  // Requests wait for the service fonts on first start; a failure is logged, not fatal.
  const seeded = seedServiceFonts(deps.store, deps.clock).catch((error: unknown) => {
    deps.logger.error({ err: error }, 'seeding the service fonts failed');
  });
  // Closing waits for the seeding: the store must not close under its writes.
  deps.onClose(async () => {
    await seeded;
  });
  const sweeper = startSweeper(deps);
  deps.onClose(() => sweeper.stop());

  const api = new ApiRouter({
    routes: assetRouteTable,
    registry: deps.registry,
    jsonLimitBytes: deps.config.jsonLimitBytes,
  });
  api.router.use((_req, _res, next) => {
    seeded.then(() => next(), next);
  });
  assetRoutes(api, ctx);
  revisionRoutes(api, ctx);
  fileRoutes(api, ctx);
  lifecycleRoutes(api, ctx);
  blobRoutes(api, ctx);
  const streams = new EventStreams({
    hub: deps.events,
    store: deps.store,
    logger: deps.logger,
    maxPerAccount: deps.config.eventStreamsPerAccount,
  });
  deps.onStop(() => streams.close());
  eventStreamRoute(api, {
    store: deps.store,
    streams,
    kinds: events.ASSET_EVENT_KINDS,
  });
  webhookRoutes(api, {
    store: deps.store,
    dispatcher: deps.webhooks,
    scopeOf: (req) =>
      Promise.resolve({ accountNumber: callerOf(req).accountNumber, projectId: null }),
  });
  return api.router;
}
