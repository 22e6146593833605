export { createApp } from './app.js';
export type { AppOptions, GalleyApp } from './app.js';
export { startServer } from './server.js';
export type { RunningServer, StartOptions } from './server.js';
export { loadConfig, ConfigError } from './config.js';
export type { ServerConfig } from './config.js';
export type { Resolve } from './webhooks/address-guard.js';
export type { Deps, ApiDeps } from './deps.js';
export { bootstrapOffice, OFFICE_EMAIL } from './first-start.js';
export type { OfficeCredentials } from './first-start.js';
export { createLogger } from './http/logging.js';
export {
  HttpProblem,
  defineProblems,
  problemOf,
  sendProblem,
  problemType,
  PLATFORM_PROBLEMS,
  PROBLEM_CONTENT_TYPE,
} from './http/problem.js';
export type {
  ProblemBody,
  ProblemCatalog,
  ProblemKind,
  ProblemOptions,
  PlatformProblemCode,
} from './http/problem.js';
export { parseInput, parseBody, parseQuery, fieldErrors, fieldErrorsOf } from './http/parse.js';
export type { FieldError, FieldErrors } from './http/parse.js';
export {
  editorClientOf,
  isValidEditorClient,
  requireEditorClient,
  EDITOR_CLIENT_PATTERN,
} from './http/editor-client.js';
export { streamMultipart, readMultipart } from './http/multipart.js';
export type {
  MultipartOptions,
  MultipartFileInfo,
  BufferedFile,
  StreamedMultipart,
} from './http/multipart.js';
export { putRequestBody } from './http/raw-body.js';
export { readJson, jsonParser } from './http/json-body.js';
export { authOf, maybeAuth, sessionAuthOf } from './auth/context.js';
export type { AuthContext, AuthFailure, SessionAuth } from './auth/context.js';
export { requireAuth, requireSession, SESSION_COOKIE } from './auth/authenticate.js';
export { ApiRegistry, schemaOf } from './openapi/registry.js';
export type { ApiInfo } from './openapi/registry.js';
export { ApiRouter } from './openapi/api-router.js';
export type { RouteInput, RouteHandler } from './openapi/api-router.js';
export { superviseWorkers, WorkerStartFailure } from './cluster/primary.js';
export type { Supervisor } from './cluster/primary.js';
export { workerLink } from './cluster/worker.js';
export type { WorkerLink } from './cluster/worker.js';
export { ServiceMetrics } from './metrics/metrics.js';
export type { CacheStats, PoolTaskTiming, WorkerPoolProbe } from './metrics/metrics.js';
