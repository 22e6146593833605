// Placeholder for the editing interface (/api/v1): its owner replaces this file.
import type { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { ApiRouter } from '../openapi/api-router.js';

export function v1Router(deps: ApiDeps): Router {
  return new ApiRouter({ registry: deps.registry, jsonLimitBytes: deps.config.jsonLimitBytes })
    .router;
}
