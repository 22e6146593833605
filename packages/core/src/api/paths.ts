// The method and path of every operation of both interfaces, said once. The route table
// (routes.ts) adds each one's schemas and documentation; this file stays free of zod so that
// what only builds requests (the client in a browser page, the screen) carries no schemas.
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Where an operation is: its method, its OpenAPI-style path, and Express's where it differs. */
export interface RoutePath {
  readonly method: Method;
  readonly path: string;
  /** Express path when it cannot be derived (raw-slash params: `/assets/:id/files/*path`). */
  readonly expressPath?: string;
}

/** Operations both interfaces have, at the same paths. */
export const sharedPaths = {
  events: { method: 'get', path: '/events' },
  getSchema: { method: 'get', path: '/schemas/{kind}/{version}' },
} as const;

/** Webhooks below `base`: a project's (`/projects/{id}/webhooks`) or an account's (`/webhooks`). */
export const webhookPaths = (base: string) =>
  ({
    createWebhook: { method: 'post', path: base },
    listWebhooks: { method: 'get', path: base },
    deleteWebhook: { method: 'delete', path: `${base}/{webhook}` },
    listDeliveries: { method: 'get', path: `${base}/{webhook}/deliveries` },
    replayDelivery: { method: 'post', path: `${base}/{webhook}/deliveries/{delivery}/replay` },
  }) as const;

export type WebhookPaths = ReturnType<typeof webhookPaths>;

/** `/api/v1`: editing-api-v1.md. */
export const editingPaths = {
  openDraft: { method: 'get', path: '/pages/{page}/draft' },
  discardDraft: { method: 'delete', path: '/pages/{page}/draft' },
  draftLog: { method: 'get', path: '/pages/{page}/draft/log' },
  applyOperation: { method: 'post', path: '/pages/{page}/operations' },
  undoDraft: { method: 'post', path: '/pages/{page}/draft/undo' },
  redoDraft: { method: 'post', path: '/pages/{page}/draft/redo' },
  save: { method: 'put', path: '/pages/{page}/operations' },
  pageRevision: { method: 'get', path: '/pages/{page}/revisions/{revision}' },
  pageEvents: { method: 'get', path: '/pages/{page}/events' },
  listProjects: { method: 'get', path: '/projects' },
  createProject: { method: 'post', path: '/projects/folder' },
  getProject: { method: 'get', path: '/projects/{id}' },
  renameProject: { method: 'patch', path: '/projects/{id}' },
  deleteProject: { method: 'delete', path: '/projects/{id}' },
  downloadFolder: { method: 'get', path: '/projects/{id}/folder' },
  downloadVersion: { method: 'get', path: '/projects/{id}/folder/{version}' },
  replaceFolder: { method: 'post', path: '/projects/{id}/folder' },
  listPages: { method: 'get', path: '/projects/{id}/pages' },
  listMembers: { method: 'get', path: '/projects/{id}/members' },
  putMember: { method: 'put', path: '/projects/{id}/members' },
  removeMember: { method: 'delete', path: '/projects/{id}/members/{user}' },
  getLock: { method: 'get', path: '/projects/{id}/lock' },
  takeLock: { method: 'put', path: '/projects/{id}/lock' },
  releaseLock: { method: 'delete', path: '/projects/{id}/lock' },
  history: { method: 'get', path: '/projects/{id}/history' },
  moveHistory: { method: 'put', path: '/projects/{id}/history' },
  latestConfirmation: { method: 'get', path: '/projects/{id}/confirmations/latest' },
  getConfirmation: { method: 'get', path: '/projects/{id}/confirmations/{confirmation}' },
  listConfirmations: { method: 'get', path: '/projects/{id}/confirmations' },
  confirm: { method: 'post', path: '/projects/{id}/confirmations' },
  ...sharedPaths,
  ...webhookPaths('/projects/{id}/webhooks'),
} as const satisfies Record<string, RoutePath>;

/** `/api/v2`: asset-api-v2.md. */
export const assetPaths = {
  listAssets: { method: 'get', path: '/assets' },
  createAsset: { method: 'post', path: '/assets' },
  getAsset: { method: 'get', path: '/assets/{id}' },
  renameAsset: { method: 'patch', path: '/assets/{id}' },
  listRevisions: { method: 'get', path: '/assets/{id}/revisions' },
  createRevision: { method: 'post', path: '/assets/{id}/revisions' },
  eraseContent: { method: 'delete', path: '/assets/{id}/revisions/{n}/content' },
  getFile: {
    method: 'get',
    path: '/assets/{id}/files/{path}',
    expressPath: '/assets/:id/files/*path',
  },
  duplicate: { method: 'post', path: '/assets/{id}/duplicates' },
  copyInto: { method: 'post', path: '/assets/{id}/copies' },
  setState: { method: 'put', path: '/assets/{id}/state' },
  deleteAsset: { method: 'delete', path: '/assets/{id}' },
  uploadBlob: { method: 'post', path: '/blobs' },
  listSchemas: { method: 'get', path: '/schemas' },
  ...sharedPaths,
  ...webhookPaths('/webhooks'),
} as const satisfies Record<string, RoutePath>;

/** Where each interface's paths start on the service. */
export const EDITING_ROOT = '/api/v1';
export const ASSET_ROOT = '/api/v2';

/**
 * The route's path with its parameters filled in, each encoded for a URL; a wildcard parameter
 * (`*path` in Express) keeps its slashes: `/assets/ast_1/files/canvas/main.png`.
 */
export function pathOf(spec: RoutePath, params: Record<string, string | number> = {}): string {
  return spec.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, key: string) => {
    const value = String(params[key] ?? '');
    return spec.expressPath?.includes(`*${key}`)
      ? value.split('/').map(encodeURIComponent).join('/')
      : encodeURIComponent(value);
  });
}

/** How people read a route: `PUT /projects/{id}/lock`. */
export const nameOf = (spec: RoutePath): string => `${spec.method.toUpperCase()} ${spec.path}`;
