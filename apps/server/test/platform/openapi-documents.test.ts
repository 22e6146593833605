// What a code generator reads in the two documents: operations named as the route table names
// them, every refusal with its members told apart by `code` (codes the service really answers
// with that status), named shapes, and an example per operation that its own schema accepts.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { assetRoutes, editingRoutes } from '@galley/core';
import type { RouteTable } from '@galley/core';
import { V2_PROBLEMS } from '../../src/assets/problems.js';
import { V1_PROBLEMS } from '../../src/editing/problems.js';
import { PLATFORM_PROBLEMS } from '../../src/http/problem.js';
import { renderApiDocs } from '../../src/openapi/render-docs.js';

type Json = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters?: Json[];
  requestBody?: { content: Record<string, Json> };
  responses: Record<string, { content?: Record<string, Json> }>;
}

const files = await renderApiDocs();
const interfaces: Array<[string, RouteTable]> = [
  ['v1', editingRoutes],
  ['v2', assetRoutes],
];
const documents = Object.fromEntries(
  interfaces.map(([version]) => [
    version,
    JSON.parse(files[`${version}.openapi.json`]!) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Json> };
    },
  ]),
);

function operations(version: string): Operation[] {
  return Object.values(documents[version]!.paths).flatMap((item) => Object.values(item));
}

/** Every media type of an operation (request and answers), with where it is. */
function mediaOf(op: Operation): Array<[string, Json]> {
  return [
    ...Object.values(op.requestBody?.content ?? {}).map((m): [string, Json] => ['request', m]),
    ...Object.entries(op.responses).flatMap(([status, r]) =>
      Object.values(r.content ?? {}).map((m): [string, Json] => [status, m]),
    ),
  ];
}

/** The codes each problem component stands for (`const`, or `enum` for a shape of several). */
function codesOf(version: string, ref: string): string[] {
  const name = ref.replace('#/components/schemas/', '');
  const parts = (documents[version]!.components.schemas[name]!.allOf ?? []) as Json[];
  const code = ((parts[1]?.properties ?? {}) as Record<string, Json>).code ?? {};
  return (code.enum as string[] | undefined) ?? (code.const ? [code.const as string] : []);
}

const catalogs = [PLATFORM_PROBLEMS, V1_PROBLEMS, V2_PROBLEMS] as Array<
  Record<string, { status: number }>
>;
/** The one code answered with a status other than its catalog's: a malformed Last-Event-ID. */
const OTHER_STATUS = ['events 400 validation_failed'];

describe.each(interfaces)('the %s document', (version, table) => {
  it('names each operation as the route table does', () => {
    const ids = operations(version).map((op) => op.operationId);
    expect(ids.sort()).toEqual(Object.keys(table).sort());
  });

  it('gives every refusal its problems, by codes the service answers with that status', () => {
    for (const op of operations(version)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content!['application/problem+json']!.schema as Json;
        const refs = ((schema.oneOf as Json[] | undefined) ?? [schema]).map((s) => s.$ref);
        expect(refs, `${op.operationId} ${status}`).not.toContain('#/components/schemas/Problem');
        for (const code of refs.flatMap((ref) => codesOf(version, ref as string))) {
          const known = catalogs.filter((c) => c[code]).map((c) => c[code]!.status);
          const where = `${op.operationId} ${status} ${code}`;
          expect(known.length, `${where}: no such code`).toBeGreaterThan(0);
          if (!OTHER_STATUS.includes(where)) expect(known, where).toContain(Number(status));
        }
      }
    }
  });

  it('names the main shapes, and refers to them', () => {
    const { schemas } = documents[version]!.components;
    const main =
      version === 'v1'
        ? ['Project', 'Page', 'Lock', 'Draft', 'OperationAnswer', 'Confirmation', 'Member']
        : ['Asset', 'Revision', 'Inspection', 'FileSpec', 'Blob', 'Webhook', 'Event'];
    for (const name of [...main, 'Problem']) expect(Object.keys(schemas)).toContain(name);
    expect(files[`${version}.openapi.json`]).toContain('"$ref": "#/components/schemas/Problem"');
  });

  it('shows an example of every operation that its schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ components: documents[version]!.components }, 'document');
    const local = (schema: unknown) =>
      JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"document#/components/'),
      ) as Json;
    for (const op of operations(version)) {
      const examples: Array<[string, Json, unknown]> = [
        ...mediaOf(op).flatMap(([where, media]): Array<[string, Json, unknown]> =>
          'example' in media ? [[where, media.schema as Json, media.example]] : [],
        ),
        ...(op.parameters ?? []).flatMap((p): Array<[string, Json, unknown]> =>
          'example' in p ? [[String(p.name), p.schema as Json, p.example]] : [],
        ),
      ];
      expect(examples.length, op.operationId).toBeGreaterThan(0);
      for (const [where, schema, example] of examples) {
        const valid = ajv.validate(local(schema), example);
        expect(ajv.errors ?? [], `${op.operationId} ${where}`).toEqual([]);
        expect(valid).toBe(true);
      }
    }
  });
});

describe('the documents’ bodies that are not JSON', () => {
  const op = (version: string, path: string) => documents[version]!.paths[path]!.post!;

  it('name each multipart field, and say the media type of each file', () => {
    for (const path of ['/projects/folder', '/projects/{id}/folder']) {
      const form = op('v1', path).requestBody!.content['multipart/form-data']!;
      expect(form.encoding).toEqual({ zip: { contentType: 'application/zip' } });
      expect(documents.v1!.components.schemas.FolderUpload).toMatchObject({
        properties: { zip: { format: 'binary', contentMediaType: 'application/zip' } },
        required: ['zip'],
      });
    }
    const upload = op('v2', '/assets').requestBody!.content['multipart/form-data']!;
    expect(upload.encoding).toEqual({ file: { contentType: 'application/octet-stream' } });
    expect(documents.v2!.components.schemas.AssetUpload).toMatchObject({
      properties: { file: { format: 'binary' } },
      required: ['request_key', 'kind', 'title', 'file'],
    });
  });

  it('describe an upload of bytes as bytes', () => {
    expect(op('v2', '/blobs').requestBody!.content).toEqual({
      'application/octet-stream': {
        schema: { format: 'binary', contentMediaType: 'application/octet-stream' },
      },
    });
  });
});
