// One operation of an OpenAPI document, from its route: parameters, request body (JSON, or a
// multipart form with the media type of each file field, or raw bytes), and every answer, each
// refusal as the problems of its codes; an example of what it sends and answers.
import { Problem, problemShape } from '@galley/core';
import type { ResponseSpec, RouteSpec } from '@galley/core';
import { z } from 'zod';
import { EDITOR_CLIENT_PATTERN } from '../http/editor-client.js';
import { schemaOf } from './document-schemas.js';
import type { DocumentSchemas } from './document-schemas.js';
import { responsesOf } from './refusals.js';

type Json = Record<string, unknown>;

const JSON_TYPE = 'application/json';

export function operationOf(spec: RouteSpec, schemas: DocumentSchemas): Json {
  const examples = spec.example?.params ?? {};
  const parameters = [
    ...parametersOf(spec.params, 'path', examples),
    ...parametersOf(spec.query, 'query', examples),
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
  if (!spec.operationId) throw new Error(`${spec.method} ${spec.path} has no operationId`);
  // The example of the answer goes with the first success that has a body.
  let answerExample = spec.example?.answer;
  const responses = Object.entries(responsesOf(spec)).map(([status, response]) => {
    const success = Number(status) < 300;
    const json = responseOf(Number(status), response, schemas, success ? answerExample : undefined);
    if (json.content && success) answerExample = undefined;
    return [status, json];
  });
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.tags ? { tags: spec.tags } : {}),
    ...((spec.authenticated ?? true) ? {} : { security: [] }),
    ...(parameters.length ? { parameters } : {}),
    ...requestBodyOf(spec, schemas),
    responses: Object.fromEntries(responses),
  };
}

function requestBodyOf(spec: RouteSpec, schemas: DocumentSchemas): Json {
  const { body, requestBody } = spec;
  if (!body && !requestBody) return {};
  const example = spec.example?.request;
  const media = (schema: z.ZodType | undefined, type: string): Json => ({
    ...(schema ? { schema: schemas.use(schema, 'input') } : {}),
    ...(schema && type === JSON_TYPE && example !== undefined ? { example } : {}),
    ...(schema && type.startsWith('multipart/') ? { encoding: encodingOf(schema) } : {}),
  });
  return {
    requestBody: {
      required: requestBody?.required ?? true,
      ...(requestBody?.description ? { description: requestBody.description } : {}),
      content: {
        ...(body ? { [JSON_TYPE]: media(body, JSON_TYPE) } : {}),
        ...(requestBody
          ? { [requestBody.contentType]: media(requestBody.schema, requestBody.contentType) }
          : {}),
      },
    },
  };
}

/** The media type each file field of a form is sent as (its part's `Content-Type`). */
function encodingOf(form: z.ZodType): Json {
  if (!(form instanceof z.ZodObject)) return {};
  const fields: z.ZodObject<z.ZodRawShape> = form;
  const encoding: Json = {};
  for (const [name, field] of Object.entries(fields.shape)) {
    const meta = z.globalRegistry.get(field);
    if (meta?.format === 'binary') encoding[name] = { contentType: meta.contentMediaType };
  }
  return encoding;
}

function responseOf(
  status: number,
  r: ResponseSpec,
  schemas: DocumentSchemas,
  example: unknown,
): Json {
  const contentType = r.contentType ?? (status >= 400 ? 'application/problem+json' : JSON_TYPE);
  const schema =
    status >= 400 ? problemSchema(r, schemas) : r.schema && schemas.use(r.schema, 'output');
  // A body described by its media type alone (a file, a schema document) still names it.
  const content =
    schema || r.contentType
      ? {
          [contentType]: {
            ...(schema ? { schema } : {}),
            ...(schema && example !== undefined ? { example } : {}),
          },
        }
      : undefined;
  return {
    description: r.description,
    ...(r.headers ? { headers: headersOf(r.headers) } : {}),
    ...(content ? { content } : {}),
  };
}

/**
 * The body of an error answer: the problem of one of its codes (`oneOf`, told apart by `code`),
 * or any Problem where the route names none.
 */
function problemSchema(r: ResponseSpec, schemas: DocumentSchemas): Json {
  if (r.schema) throw new Error(`describe the refusal "${r.description}" by its codes`);
  const shapes = new Map(
    (r.codes ?? []).map((code) => [problemShape(code).name, problemShape(code)]),
  );
  const refs = [...shapes.values()].map(({ name, schema }) =>
    schemas.useNamed(schema, name, 'output'),
  );
  if (refs.length === 0) return schemas.use(Problem, 'output');
  return refs.length === 1 ? refs[0]! : { oneOf: refs };
}

function headersOf(headers: NonNullable<ResponseSpec['headers']>): Json {
  return Object.fromEntries(
    Object.entries(headers).map(([name, h]) => [
      name,
      { description: h.description, schema: h.schema ?? { type: 'string' } },
    ]),
  );
}

function parametersOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query',
  examples: Record<string, string | number>,
): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
    ...(examples[name] !== undefined ? { example: examples[name] } : {}),
  }));
}
