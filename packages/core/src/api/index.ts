export * from './common.js';
export * as v1 from './v1.js';
export * as v2 from './v2.js';
export * as events from './events.js';
export { editingRoutes, assetRoutes, type EditingRoutes, type AssetRoutes } from './routes.js';
export {
  editingPaths,
  assetPaths,
  EDITING_ROOT,
  ASSET_ROOT,
  pathOf,
  nameOf,
  type RoutePath,
} from './paths.js';
export { route } from './route.js';
export { problemShape, type ProblemShape } from './problems.js';
export { namedSchemas, documentedAs } from './components.js';
export type { RouteSpec, ResponseSpec, HttpMethod, AnswerOf, RouteTable } from './route.js';
export {
  LastEventId,
  type EventRoutes,
  type WebhookRoutes,
  type SchemaRoutes,
} from './shared-routes.js';
