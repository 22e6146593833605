import { pathOf } from '@galley/core';
import type { AnswerOf, RoutePath, RouteSpec, RouteTable } from '@galley/core';
import type { z } from 'zod';
import type { Binary, Call, transport } from './http.js';
import { withQuery } from './http.js';

type Transport = ReturnType<typeof transport>;
type In<S> = S extends z.ZodType ? z.input<S> : never;
type QueryValue = string | number | boolean | readonly string[] | undefined;

type ParamsInput<S> = S extends { params: infer P extends z.ZodType }
  ? keyof In<P> extends never
    ? { params?: Record<string, never> }
    : { params: { [K in keyof In<P>]: string | number } }
  : { params?: undefined };
type QueryInput<S> = S extends { query: infer Q extends z.ZodType }
  ? { query?: { [K in keyof In<Q>]?: QueryValue } }
  : { query?: undefined };
/** A JSON body; the multipart form or raw bytes of an upload; nothing where none is taken. */
type BodyInput<S> = S extends { body: infer B extends z.ZodType }
  ? S extends { requestBody: { contentType: 'multipart/form-data' } }
    ? { body: In<B>; form?: undefined } | { form: FormData; body?: undefined }
    : { body: In<B> }
  : S extends { requestBody: { contentType: 'multipart/form-data' } }
    ? { form: FormData }
    : S extends { requestBody: { contentType: 'application/octet-stream' } }
      ? { raw: Uint8Array }
      : S extends { requestBody: { schema: infer B extends z.ZodType } }
        ? { body?: In<B> }
        : { body?: undefined };

/** What a call of route `S` sends: its path parameters, query and body, as the route takes them. */
export type CallInput<S extends RouteSpec> = ParamsInput<S> &
  QueryInput<S> &
  BodyInput<S> & {
    headers?: Record<string, string>;
    signal?: AbortSignal;
  };

/**
 * Calls to one interface's routes by name (`call('getLock', {params: {id}})`): the method and
 * path come from the interface's paths, the types of what is sent and answered from its route
 * table (`T`, the same the server registers its handlers by), which is only a type here, so a
 * browser page that uses the client loads no schemas.
 */
export function caller<T extends RouteTable>(
  http: Transport,
  root: string,
  paths: { readonly [K in keyof T]: RoutePath },
) {
  const base = root.replace(/\/$/, '');
  function request<K extends keyof T & string>(name: K, input: CallInput<T[K]>): Call {
    const spec: RoutePath | undefined = paths[name];
    if (!spec) throw new Error(`no route named ${name}`);
    const sent = input as {
      params?: Record<string, string | number>;
      query?: Record<string, QueryValue>;
      body?: unknown;
      form?: FormData;
      raw?: Uint8Array;
    };
    const path = pathOf(spec, sent.params);
    const query = Object.fromEntries(
      Object.entries(sent.query ?? {}).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? Number(value) : value,
      ]),
    ) as Record<string, string | number | undefined>;
    return {
      method: spec.method.toUpperCase() as Call['method'],
      url: withQuery(`${base}${path}`, query),
      ...(sent.form
        ? { body: { form: sent.form } }
        : sent.raw
          ? // Raw bytes: only `POST /blobs` takes them, as application/octet-stream.
            { body: { raw: sent.raw, contentType: 'application/octet-stream' } }
          : sent.body !== undefined
            ? { body: { json: sent.body } }
            : {}),
      ...(input.headers ? { headers: input.headers } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    };
  }
  return {
    /** The URL of a call (for `EventSource`, links, or `fetch` with `keepalive`). */
    url: <K extends keyof T & string>(name: K, input: CallInput<T[K]>) => request(name, input).url,
    /** The route's JSON answer (`undefined` for 204); a refusal throws `GalleyApiError`. */
    json: <K extends keyof T & string>(name: K, input: CallInput<T[K]>) =>
      http.json<AnswerOf<T[K]>>(request(name, input)),
    /** The answer's bytes and headers (ZIPs, files). */
    binary: <K extends keyof T & string>(name: K, input: CallInput<T[K]>): Promise<Binary> =>
      http.binary(request(name, input)),
    /** The answer itself, its body unread (event streams). */
    response: <K extends keyof T & string>(name: K, input: CallInput<T[K]>) =>
      http.response(request(name, input)),
  };
}
