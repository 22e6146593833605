import { getSchema } from '@galley/core';
import type { SchemaRoutes } from '@galley/core';
import { problemOf } from '../http/problem.js';
import type { ApiRouter } from './api-router.js';

/** `GET /schemas/{kind}/{version}`: the JSON Schema addressed as `svc://schemas/<kind>/<version>`. */
export function schemaRoute(api: ApiRouter<SchemaRoutes>): void {
  api.handle('getSchema', ({ res, params }) => {
    const schema = getSchema(params.kind, params.version);
    if (!schema)
      throw problemOf('not_found', { detail: `No schema ${params.kind}/${params.version}.` });
    res.type('application/schema+json').send(JSON.stringify(schema));
  });
}
