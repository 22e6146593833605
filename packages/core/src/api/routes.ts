// The route table: every operation of both interfaces, by name. The server registers a handler
// per name and documents the table in OpenAPI; the client calls the same entries.
import { z } from 'zod';
import { assetOperations } from './asset-routes.js';
import { ProjectParams } from './editing-inputs.js';
import { pageRoutes } from './editing-page-routes.js';
import { projectRoutes } from './editing-routes.js';
import { ASSET_EVENT_KINDS, PROJECT_EVENT_KINDS } from './events.js';
import { assetExamples } from './asset-examples.js';
import { editingExamples } from './editing-examples.js';
import { withExamples } from './route.js';
import { assetPaths, editingPaths } from './paths.js';
import { eventRoute, schemaRoute, webhookRoutes } from './shared-routes.js';

/** `/api/v1`: editing-api-v1.md. */
export const editingRoutes = withExamples(
  {
    ...pageRoutes,
    ...projectRoutes,
    events: eventRoute({
      about: 'the projects the caller can open',
      kinds: PROJECT_EVENT_KINDS,
      byProject: true,
    }),
    ...webhookRoutes({
      paths: editingPaths,
      params: ProjectParams,
      kinds: PROJECT_EVENT_KINDS,
      byProject: true,
    }),
    getSchema: schemaRoute(false),
  },
  editingExamples,
);

/** `/api/v2`: asset-api-v2.md. */
export const assetRoutes = withExamples(
  {
    ...assetOperations,
    getSchema: schemaRoute(true),
    events: eventRoute({
      about: 'the caller’s assets',
      kinds: ASSET_EVENT_KINDS,
      byProject: false,
    }),
    ...webhookRoutes({
      paths: assetPaths,
      params: z.object({}),
      kinds: ASSET_EVENT_KINDS,
      byProject: false,
    }),
  },
  assetExamples,
);

export type EditingRoutes = typeof editingRoutes;
export type AssetRoutes = typeof assetRoutes;
