// Placeholder for the asset interface (/api/v2): its owner replaces this file.
import type { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { ApiRouter } from '../openapi/api-router.js';

export function v2Router(deps: ApiDeps): Router {
  return new ApiRouter({ registry: deps.registry, jsonLimitBytes: deps.config.jsonLimitBytes })
    .router;
}
