import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  /** Body schema of a success; an error answer is described by its `codes`. */
  schema?: z.ZodType;
  /** The problem codes an error answer can carry: its body is the problem of one of them. */
  codes?: readonly string[];
  /** Defaults to application/json (application/problem+json for errors). */
  contentType?: string;
  headers?: Record<string, { description: string; schema?: Record<string, unknown> }>;
}

/**
 * One operation of an interface, said once: the server validates its handler's input with these
 * schemas and documents it in OpenAPI from them, and the client builds its requests and types
 * its answers from them.
 */
export interface RouteSpec {
  method: HttpMethod;
  /** OpenAPI-style path relative to the interface root: `/projects/{id}`. */
  path: string;
  /** Express path when it cannot be derived (raw-slash params: `/assets/:id/files/*path`). */
  expressPath?: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  operationId?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** JSON request body (parsed lazily by the handler). */
  body?: z.ZodType;
  /** Body paths kept as sent, U+0000 included (file contents). */
  bodyVerbatim?: readonly string[];
  /**
   * A request body that is not JSON (multipart, raw bytes), or an optional JSON one; beside
   * `body`, the other form the operation also takes.
   */
  requestBody?: {
    contentType: string;
    description?: string;
    schema?: z.ZodType;
    required?: boolean;
  };
  /** The operation needs the `X-Editor-Client` header. */
  editorClient?: boolean;
  /** Optional request headers the operation reads (`Range`, `If-None-Match`), documented only. */
  requestHeaders?: Record<string, string>;
  /** False for operations anyone may call without credentials. */
  authenticated?: boolean;
  responses: Record<number, ResponseSpec>;
  /** What a call sends (parameters, body) and answers when it succeeds, as the documents show. */
  example?: { params?: Record<string, string | number>; request?: unknown; answer?: unknown };
}

/** Keeps a route's own types (its schemas, its answers) for the server's handler and the client. */
export const route = <const S extends RouteSpec>(spec: S): S => spec;

export type RouteTable = Record<string, RouteSpec>;

/** Examples of a table's routes, by route name. */
export type Examples<T extends RouteTable> = { [K in keyof T]?: RouteSpec['example'] };

/** A table whose routes carry their examples, given by route name. */
export function withExamples<T extends RouteTable>(table: T, examples: Examples<T>): T {
  return Object.fromEntries(
    Object.entries(table).map(([name, spec]) => [name, { ...spec, example: examples[name] }]),
  ) as T;
}

type SuccessStatus = 200 | 201 | 202 | 206;
type SchemaOf<R> = R extends { schema: infer S extends z.ZodType } ? z.output<S> : undefined;
type Answers<S extends RouteSpec> = {
  [K in keyof S['responses'] & SuccessStatus]: SchemaOf<S['responses'][K]>;
}[keyof S['responses'] & SuccessStatus];
/** What a route answers when it succeeds (`undefined` for 204 and bodies that are not JSON). */
export type AnswerOf<S extends RouteSpec> = [Answers<S>] extends [never] ? undefined : Answers<S>;
