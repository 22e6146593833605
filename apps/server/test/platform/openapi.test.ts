import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary } from '@galley/core';
import { ApiRegistry } from '@galley/server';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

async function expectValid(document: unknown) {
  const result = await new Validator().validate(document as Record<string, unknown>);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
}

describe('served OpenAPI documents', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  for (const version of ['v1', 'v2']) {
    it(`/api/${version}/openapi.json is a valid OpenAPI 3.1 document, served without credentials`, async () => {
      const res = await fetch(`${s.url}/api/${version}/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { openapi: string; servers: Array<{ url: string }> };
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.servers[0]?.url).toBe(`${s.url}/api/${version}`);
      await expectValid(doc);
    });
  }
});

describe('ApiRegistry', () => {
  const registry = new ApiRegistry(
    { title: 'sample', version: '1' },
    'http://localhost:8080/api/v1',
  );
  const Project = z.object({
    id: z.string(),
    title: z.string(),
    revision: z.int(),
    created_at: z.iso.datetime({ offset: true }),
  });
  registry.add({
    operationId: 'getProject',
    method: 'get',
    path: '/projects/{id}',
    summary: 'Read a project',
    params: z.object({ id: z.string() }),
    query: z.strictObject({ per_page: z.coerce.number().int().min(1).max(200).optional() }),
    responses: {
      200: { description: 'the project', schema: Project },
      404: { description: 'absent' },
    },
  });
  registry.add({
    operationId: 'renameProject',
    method: 'patch',
    path: '/projects/{id}',
    summary: 'Rename',
    editorClient: true,
    params: z.object({ id: z.string() }),
    body: z.strictObject({ title: z.string().min(1) }),
    responses: {
      200: { description: 'renamed', schema: Project },
      422: { description: 'invalid', codes: ['validation_failed'] },
      409: { description: 'conflict', codes: ['lock_required', 'revision_conflict'] },
    },
  });
  registry.add({
    operationId: 'createProject',
    method: 'post',
    path: '/projects/folder',
    summary: 'Open a folder',
    body: z.strictObject({ url: z.string() }),
    requestBody: {
      contentType: 'multipart/form-data',
      schema: z.object({ zip: binary('application/zip') }),
    },
    responses: {
      201: {
        description: 'created',
        schema: Project,
        headers: { Location: { description: 'its URL' } },
      },
    },
  });
  registry.add({
    operationId: 'downloadFolder',
    method: 'get',
    path: '/projects/{id}/folder',
    summary: 'Download',
    params: z.object({ id: z.string() }),
    requestHeaders: { Range: 'one byte range' },
    responses: { 200: { description: 'ZIP', contentType: 'application/zip' } },
  });

  it('generates a valid document from zod schemas', async () => {
    await expectValid(registry.document());
  });

  it('describes parameters, bodies, headers and default problem answers', () => {
    const doc = registry.document() as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const patch = doc.paths['/projects/{id}']!.patch!;
    expect(patch.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      expect.objectContaining({ name: 'X-Editor-Client', in: 'header', required: true }),
    ]);
    expect(patch.requestBody).toMatchObject({
      content: {
        'application/json': {
          schema: { type: 'object', required: ['title'], additionalProperties: false },
        },
      },
    });
    // A JSON body can be refused as not JSON, too large, in another charset or invalid, whatever
    // the route lists; a write from a screen session without its CSRF token is refused; and any
    // operation answers 503 or 507 when storage fails.
    expect(Object.keys(patch.responses as object).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '409',
      '413',
      '415',
      '422',
      '429',
      '503',
      '507',
    ]);
    const named = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(patch.responses).toMatchObject({
      422: {
        description: 'invalid',
        content: { 'application/problem+json': { schema: named('ValidationFailedProblem') } },
      },
    });
    // Several refusals of one status: one of their problems, each its code and its members.
    const conflict = (patch.responses as Record<string, { content: object }>)['409']!.content;
    expect(conflict).toEqual({
      'application/problem+json': {
        schema: { oneOf: [named('LockRequiredProblem'), named('RevisionConflictProblem')] },
      },
    });
    const schemas = (registry.document() as { components: { schemas: Record<string, unknown> } })
      .components.schemas;
    expect(schemas.RevisionConflictProblem).toEqual({
      allOf: [
        named('Problem'),
        {
          type: 'object',
          properties: {
            code: { type: 'string', const: 'revision_conflict' },
            current_revision: expect.objectContaining({ type: 'integer' }) as unknown,
          },
          required: ['code', 'current_revision'],
          additionalProperties: {},
        },
      ],
    });
    const get = doc.paths['/projects/{id}']!.get!;
    expect(get.parameters).toContainEqual(
      expect.objectContaining({ name: 'per_page', in: 'query', required: false }),
    );
    expect(Object.keys(get.responses as object).sort()).toEqual([
      '200',
      '401',
      '404',
      '422',
      '429',
      '503',
      '507',
    ]);
    expect(get.operationId).toBe('getProject');

    // JSON or multipart, whose file field says its media type; a file answer named by its
    // media type; optional request headers.
    const post = doc.paths['/projects/folder']!.post!;
    const content = (post.requestBody as { content: Record<string, unknown> }).content;
    expect(Object.keys(content)).toEqual(['application/json', 'multipart/form-data']);
    expect(content['multipart/form-data']).toEqual({
      schema: {
        type: 'object',
        properties: { zip: { format: 'binary', contentMediaType: 'application/zip' } },
        required: ['zip'],
      },
      encoding: { zip: { contentType: 'application/zip' } },
    });
    const download = doc.paths['/projects/{id}/folder']!.get!;
    expect(download.responses).toMatchObject({
      200: { content: { 'application/zip': {} } },
    });
    expect(download.parameters).toContainEqual({
      name: 'Range',
      in: 'header',
      required: false,
      description: 'one byte range',
      schema: { type: 'string' },
    });
  });

  it('refuses a route declared twice, a name given twice, and a route without a name', () => {
    const again = {
      method: 'get' as const,
      summary: 'again',
      responses: { 200: { description: '' } },
    };
    expect(() => registry.add({ ...again, path: '/projects/{id}', operationId: 'x' })).toThrow(
      /route declared twice/,
    );
    expect(() => registry.add({ ...again, path: '/x', operationId: 'getProject' })).toThrow(
      /operationId given twice/,
    );
    expect(() => registry.add({ ...again, path: '/y' })).toThrow(/without an operationId/);
  });
});
