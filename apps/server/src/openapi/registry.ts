import { SESSION_COOKIE } from '@galley/core';
import type { ResponseSpec, RouteSpec } from '@galley/core';
import { z } from 'zod';
import { EDITOR_CLIENT_PATTERN } from '../http/editor-client.js';

export interface ApiInfo {
  title: string;
  version: string;
  description?: string;
}

type JsonSchema = Record<string, unknown>;

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
  additionalProperties: true,
};

const UNAUTHENTICATED: ResponseSpec = {
  description:
    'Token or session missing, malformed (two Authorization headers included), unknown, expired or revoked.',
};
/** The rate limit counts every request, with credentials or without (then per IP address). */
const TOO_MANY: ResponseSpec = {
  description: 'Too many requests: see Retry-After and the RateLimit headers.',
};

/** What any operation can answer when the service's storage fails (see docs/operations.md). */
const STORAGE_UNAVAILABLE =
  '`storage_unavailable`: the database or the data folder cannot be reached or written just now; see Retry-After';
const STORAGE_RESPONSES: Record<number, ResponseSpec> = {
  503: {
    description: STORAGE_UNAVAILABLE,
    headers: { 'Retry-After': { description: 'Seconds to wait before trying again' } },
  },
  507: { description: '`storage_full`: no room left to store the request' },
};

/** An upload is stored as sent, so it cannot come compressed. */
const UPLOAD_ENCODED: ResponseSpec = {
  description: 'The upload has a `Content-Encoding`: uploads are stored as sent',
};

/** What every operation of both interfaces shares, said once in the document's description. */
const PLATFORM_NOTES = [
  'Every answer carries `Cache-Control: private, no-store` and `X-Request-Id` (the caller’s, echoed, when it sends a sane one). Errors are problem details (`application/problem+json`) with a stable `code`.',
  'A path of this interface asked with a method it does not take answers 405 `method_not_allowed` with `Allow`; a request with an `Expect` other than `100-continue` answers 417 `expectation_failed`, and an HTTP/1.1 request without `Host` 400 `bad_request`. Paths are case-sensitive.',
  'Any operation may answer 503 `storage_unavailable` (with `Retry-After`) or 507 `storage_full` when the service’s storage fails; see docs/operations.md.',
].join('\n\n');

const QUERY_REFUSED: ResponseSpec = {
  description:
    'Invalid query (`errors`): a bad `per_page` or `page` cursor, or an unknown parameter',
};
const BODY_TOO_LARGE: ResponseSpec = { description: 'The body is larger than the limit' };
const JSON_CODING = 'JSON declared in a charset other than UTF-8, or in an unknown coding';
const BODY_INVALID: ResponseSpec = { description: 'Invalid request body (`errors`)' };

/**
 * The refusals an operation's input can cause, unless it says more: the ones of what it reads
 * (its `X-Editor-Client`, query, JSON body or upload), and only those.
 */
function inputResponses(spec: RouteSpec): Record<number, ResponseSpec> {
  const upload = spec.requestBody?.contentType;
  const json = spec.body !== undefined || upload === 'application/json';
  const raw = upload !== undefined && upload !== 'application/json';
  const badRequest: string[] = [];
  if (spec.editorClient) badRequest.push('missing or invalid `X-Editor-Client`');
  if (json) badRequest.push('a body that is not JSON');
  if (upload?.startsWith('multipart/')) badRequest.push(`a body that is not \`${upload}\``);
  const unsupported: string[] = [];
  if (json) unsupported.push(JSON_CODING);
  if (raw) unsupported.push(UPLOAD_ENCODED.description);
  const responses: Record<number, ResponseSpec> = {};
  if (badRequest.length) responses[400] = { description: sentence(badRequest) };
  if (json || raw) responses[413] = BODY_TOO_LARGE;
  if (unsupported.length) responses[415] = { description: sentence(unsupported) };
  if (json) responses[422] = BODY_INVALID;
  else if (spec.query) responses[422] = QUERY_REFUSED;
  return responses;
}

/** `a, or b`, capitalised. */
function sentence(parts: string[]): string {
  const text = parts.join(', or ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

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

  add(spec: RouteSpec): void {
    const key = `${spec.method} ${spec.path}`;
    if (this.#routes.has(key)) throw new Error(`route declared twice: ${key}`);
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
    for (const spec of this.#routes.values()) {
      (paths[spec.path] ??= {})[spec.method] = operation(spec);
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
        schemas: { Problem: PROBLEM_SCHEMA },
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'glly_… API token' },
          screenSession: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
      security: [{ bearerAuth: [] }, { screenSession: [] }],
    };
  }
}

function operation(spec: RouteSpec): JsonSchema {
  const parameters = [
    ...parametersOf(spec.params, 'path'),
    ...parametersOf(spec.query, 'query'),
    ...(spec.editorClient
      ? [
          {
            name: 'X-Editor-Client',
            in: 'header',
            required: true,
            description:
              'The calling client, chosen once per run: letters, digits and `. _ : -`, at most 64 characters (a UUID will do); a lock and a draft belong to it',
            schema: { type: 'string', pattern: EDITOR_CLIENT_PATTERN.source },
          },
        ]
      : []),
    ...Object.entries(spec.requestHeaders ?? {}).map(([name, description]) => ({
      name,
      in: 'header',
      required: false,
      description,
      schema: { type: 'string' },
    })),
  ];
  const authenticated = spec.authenticated ?? true;
  const own503 = spec.responses[503];
  const storage = own503
    ? {
        ...STORAGE_RESPONSES,
        503: {
          ...STORAGE_RESPONSES[503],
          ...own503,
          description: `${own503.description}; or ${STORAGE_UNAVAILABLE}`,
        },
      }
    : STORAGE_RESPONSES;
  const responses = {
    ...(authenticated ? { 401: UNAUTHENTICATED } : {}),
    429: TOO_MANY,
    ...inputResponses(spec),
    ...spec.responses,
    ...storage,
  };
  return {
    operationId: spec.operationId ?? operationIdOf(spec),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.tags ? { tags: spec.tags } : {}),
    ...(authenticated ? {} : { security: [] }),
    ...(parameters.length ? { parameters } : {}),
    ...requestBodyOf(spec),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, r]) => [status, responseOf(Number(status), r)]),
    ),
  };
}

function requestBodyOf(spec: RouteSpec): JsonSchema {
  const { body, requestBody } = spec;
  if (!body && !requestBody) return {};
  return {
    requestBody: {
      required: requestBody?.required ?? true,
      ...(requestBody?.description ? { description: requestBody.description } : {}),
      content: {
        ...(body ? { 'application/json': { schema: schemaOf(body, 'input') } } : {}),
        ...(requestBody
          ? {
              [requestBody.contentType]: requestBody.schema
                ? { schema: schemaOf(requestBody.schema, 'input') }
                : {},
            }
          : {}),
      },
    },
  };
}

function responseOf(status: number, r: ResponseSpec): JsonSchema {
  const isError = status >= 400;
  const contentType = r.contentType ?? (isError ? 'application/problem+json' : 'application/json');
  const problem = { $ref: '#/components/schemas/Problem' };
  // Every refusal is a problem: a schema given for one names only what it adds.
  const schema = r.schema
    ? isError
      ? { allOf: [problem, openObject(schemaOf(r.schema, 'output'))] }
      : schemaOf(r.schema, 'output')
    : isError
      ? problem
      : undefined;
  // A body described by its media type alone (a file, a schema document) still names it.
  const content = schema
    ? { [contentType]: { schema } }
    : r.contentType
      ? { [contentType]: {} }
      : undefined;
  return {
    description: r.description,
    ...(r.headers ? { headers: headersOf(r.headers) } : {}),
    ...(content ? { content } : {}),
  };
}

function headersOf(headers: NonNullable<ResponseSpec['headers']>): JsonSchema {
  return Object.fromEntries(
    Object.entries(headers).map(([name, h]) => [
      name,
      { description: h.description, schema: h.schema ?? { type: 'string' } },
    ]),
  );
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
  }));
}

/** The schema without its ban on other members, so it can be combined with another (`allOf`). */
function openObject(schema: JsonSchema): JsonSchema {
  const { additionalProperties: _closed, ...open } = schema;
  for (const key of ['anyOf', 'oneOf']) {
    const choices = open[key];
    if (Array.isArray(choices)) open[key] = (choices as JsonSchema[]).map(openObject);
  }
  return open;
}

/** JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of a zod schema, inline. */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function operationIdOf(spec: RouteSpec): string {
  const words = spec.path
    .split('/')
    .filter(Boolean)
    .map((part) =>
      part
        .replace(/[{}]/g, '')
        .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string = '') => c.toUpperCase()),
    )
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1));
  return spec.method + words.join('');
}
