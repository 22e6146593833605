import express from 'express';
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { parseBody, parseInput, parseQuery } from '../http/parse.js';
import { HttpProblem, problemOf } from '../http/problem.js';
import type { AssetRoutes, EditingRoutes, RouteSpec, RouteTable } from '@galley/core';
import type { ApiRegistry } from './registry.js';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Part<S, K extends string> = S extends { [key in K]: infer Z } ? Z : undefined;

export interface RouteInput<P, Q, B> {
  req: Request;
  res: Response;
  /** Path parameters, validated before the handler runs (invalid: 404). */
  params: Out<P>;
  /** Query, validated when called (invalid: 422), so handlers keep the refusal order. */
  query: () => Out<Q>;
  /** JSON body, read and validated when called (400/413/422), after the handler's own checks. */
  body: () => Promise<Out<B>>;
}

export type RouteHandler<P, Q, B> = (input: RouteInput<P, Q, B>) => void | Promise<void>;
/** The handler of a route of the table, its input typed by the route's schemas. */
export type HandlerOf<S> = RouteHandler<Part<S, 'params'>, Part<S, 'query'>, Part<S, 'body'>>;

/**
 * An Express router for one interface's route table (`@galley/core`'s `editingRoutes` or
 * `assetRoutes`): a handler is registered by its route's name, and the route's zod schemas both
 * validate the handler's input and describe the operation in the interface's OpenAPI document.
 */
export class ApiRouter<T extends RouteTable> {
  readonly router: Router = express.Router({ caseSensitive: true });
  readonly #routes: T;
  readonly #registry: ApiRegistry;
  readonly #jsonLimitBytes: number;

  constructor(options: { routes: T; registry: ApiRegistry; jsonLimitBytes: number }) {
    this.#routes = options.routes;
    this.#registry = options.registry;
    this.#jsonLimitBytes = options.jsonLimitBytes;
  }

  handle<K extends keyof T & string>(name: K, handler: HandlerOf<T[K]>): this {
    const spec: RouteSpec | undefined = this.#routes[name];
    if (!spec) throw new Error(`no route named ${name}`);
    type P = Part<T[K], 'params'>;
    type Q = Part<T[K], 'query'>;
    type B = Part<T[K], 'body'>;
    // The route's name in its table is its operationId: what a generated client calls it.
    this.#registry.add({ operationId: name, ...spec });
    const path = spec.expressPath ?? spec.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
    const limit = this.#jsonLimitBytes;
    const bodyOptions = { verbatim: spec.bodyVerbatim ?? [] };
    this.router[spec.method](path, async (req, res) => {
      let params: Out<P>;
      try {
        params = (spec.params ? parseInput(spec.params, req.params) : undefined) as Out<P>;
      } catch (error) {
        if (error instanceof HttpProblem)
          throw problemOf('not_found', { detail: 'No such resource.' });
        throw error;
      }
      await handler({
        req,
        res,
        params,
        query: () => (spec.query ? parseQuery(req, spec.query) : undefined) as Out<Q>,
        body: async () =>
          (spec.body
            ? await parseBody(req, res, spec.body, limit, bodyOptions)
            : undefined) as Out<B>,
      });
    });
    return this;
  }
}

export type EditingRouter = ApiRouter<EditingRoutes>;
export type AssetRouter = ApiRouter<AssetRoutes>;
