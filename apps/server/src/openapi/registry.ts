import { SESSION_COOKIE } from '@galley/core';
import type { RouteSpec } from '@galley/core';
import { DocumentSchemas } from './document-schemas.js';
import { operationOf } from './operation.js';

export { schemaOf } from './document-schemas.js';

export interface ApiInfo {
  title: string;
  version: string;
  description?: string;
}

type JsonSchema = Record<string, unknown>;

/** What every operation of both interfaces shares, said once in the document's description. */
const PLATFORM_NOTES = [
  'Every answer carries `Cache-Control: private, no-store` and `X-Request-Id` (the caller’s, echoed, when it sends a sane one). Errors are problem details (`application/problem+json`) with a stable `code`.',
  'A path of this interface asked with a method it does not take answers 405 `method_not_allowed` with `Allow`; a request with an `Expect` other than `100-continue` answers 417 `expectation_failed`, and an HTTP/1.1 request without `Host` 400 `bad_request`. Paths are case-sensitive.',
  'Any operation may answer 503 `storage_unavailable` (with `Retry-After`) or 507 `storage_full` when the service’s storage fails; see docs/operations.md.',
].join('\n\n');

/** The routes of one interface, and its OpenAPI 3.1 document generated from their zod schemas. */
export class ApiRegistry {
  readonly info: ApiInfo;
  readonly serverUrl: string;
  readonly #routes = new Map<string, RouteSpec>();
  #document: JsonSchema | null = null;
  #templates: Array<{ method: string; pattern: RegExp }> | null = null;

  constructor(info: ApiInfo, serverUrl: string) {
    this.info = info;
    this.serverUrl = serverUrl;
  }

  /** A route of the interface; its `operationId` (its name in the route table) is its own. */
  add(spec: RouteSpec): void {
    const key = `${spec.method} ${spec.path}`;
    if (this.#routes.has(key)) throw new Error(`route declared twice: ${key}`);
    if (!spec.operationId) throw new Error(`route without an operationId: ${key}`);
    if (this.routes().some((other) => other.operationId === spec.operationId)) {
      throw new Error(`operationId given twice: ${spec.operationId}`);
    }
    this.#routes.set(key, spec);
    this.#document = null;
    this.#templates = null;
  }

  routes(): RouteSpec[] {
    return [...this.#routes.values()];
  }

  /**
   * The methods of the routes whose path template matches `path` (below the interface's mount,
   * `/projects/prj_1` for `/projects/{id}`), HEAD with GET as Express answers it; upper case.
   */
  methodsAt(path: string): string[] {
    this.#templates ??= this.routes().map((spec) => ({
      method: spec.method.toUpperCase(),
      pattern: new RegExp(
        `^${spec.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          // A wildcard parameter (`*path` in Express) spans segments: `files/canvas/main.png`.
          spec.expressPath?.includes(`*${name}`) ? '.+' : '[^/]+',
        )}/?$`,
      ),
    }));
    const methods = new Set<string>();
    for (const { method, pattern } of this.#templates) {
      if (!pattern.test(path)) continue;
      methods.add(method);
      if (method === 'GET') methods.add('HEAD');
    }
    return [...methods];
  }

  document(): JsonSchema {
    this.#document ??= this.#build();
    return this.#document;
  }

  #build(): JsonSchema {
    const paths: Record<string, Record<string, unknown>> = {};
    const schemas = new DocumentSchemas();
    for (const spec of this.#routes.values()) {
      (paths[spec.path] ??= {})[spec.method] = operationOf(spec, schemas);
    }
    return {
      openapi: '3.1.0',
      info: {
        ...this.info,
        description: [this.info.description, PLATFORM_NOTES].filter(Boolean).join('\n\n'),
      },
      servers: [{ url: this.serverUrl }],
      paths,
      components: {
        schemas: schemas.components(),
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'glly_… API token' },
          screenSession: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
      security: [{ bearerAuth: [] }, { screenSession: [] }],
    };
  }
}
