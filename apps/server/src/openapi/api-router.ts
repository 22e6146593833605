import express from 'express';
import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { parseBody, parseInput, parseQuery } from '../http/parse.js';
import type { VerbatimPaths } from '../http/parse.js';
import { HttpProblem, problem } from '../http/problem.js';
import type { ApiRegistry, RouteSpec } from './registry.js';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

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

/**
 * An Express router whose routes are declared once, with zod schemas that both validate the
 * handler's input and describe the operation in the interface's OpenAPI document.
 */
export class ApiRouter {
  readonly router: Router = express.Router({ caseSensitive: true });
  readonly #registry: ApiRegistry;
  readonly #jsonLimitBytes: number;

  constructor(options: { registry: ApiRegistry; jsonLimitBytes: number }) {
    this.#registry = options.registry;
    this.#jsonLimitBytes = options.jsonLimitBytes;
  }

  route<
    P extends z.ZodType | undefined = undefined,
    Q extends z.ZodType | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
  >(
    spec: RouteSpec & {
      params?: P;
      query?: Q;
      body?: B;
      /** Body paths kept as sent, U+0000 included (file contents: see `VerbatimPaths`). */
      bodyVerbatim?: VerbatimPaths;
    },
    handler: RouteHandler<P, Q, B>,
  ): this {
    this.#registry.add(spec);
    const path = spec.expressPath ?? spec.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
    const limit = this.#jsonLimitBytes;
    const bodyOptions = { verbatim: spec.bodyVerbatim ?? [] };
    this.router[spec.method](path, async (req, res) => {
      let params: Out<P>;
      try {
        params = (spec.params ? parseInput(spec.params, req.params) : undefined) as Out<P>;
      } catch (error) {
        if (error instanceof HttpProblem) throw problem(404, 'not_found', 'No such resource.');
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
