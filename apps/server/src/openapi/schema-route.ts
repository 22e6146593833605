import { getSchema } from '@galley/core';
import { z } from 'zod';
import { problemOf } from '../http/problem.js';
import type { ApiRouter } from './api-router.js';

/**
 * `GET /schemas/{kind}/{version}`: the JSON Schema addressed as `svc://schemas/<kind>/<version>`.
 * The asset interface serves it to its callers (decisions §6); the editing interface serves it
 * to anyone, beside its OpenAPI document, so the schema of project.json has an address that
 * opens in a browser or an editor (`/api/v1/schemas/project/1`).
 */
export function schemaRoute(api: ApiRouter, options: { authenticated: boolean }): void {
  api.route(
    {
      method: 'get',
      path: '/schemas/{kind}/{version}',
      summary: options.authenticated
        ? 'Read a JSON Schema'
        : 'Read a JSON Schema (no credentials needed): `project/1` is the schema of project.json',
      authenticated: options.authenticated,
      params: z.object({ kind: z.string().max(64), version: z.string().max(16) }),
      responses: {
        200: { description: 'The JSON Schema', contentType: 'application/schema+json' },
        404: { description: 'No such schema' },
      },
    },
    ({ res, params }) => {
      const schema = getSchema(params.kind, params.version);
      if (!schema)
        throw problemOf('not_found', { detail: `No schema ${params.kind}/${params.version}.` });
      res.type('application/schema+json').send(JSON.stringify(schema));
    },
  );
}
