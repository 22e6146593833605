// The schema of project.json at an address anyone can open, as the folder checks' advice names it.
import { projectSchema, writeZip } from '@galley/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startV1Server } from './helpers.js';
import type { TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startV1Server();
});
afterAll(async () => {
  await s.close();
});

const encoder = new TextEncoder();

describe('GET /api/v1/schemas/{kind}/{version}', () => {
  it('answers the JSON Schema of project.json without credentials', async () => {
    const answer = await call<unknown>(s, 'GET', '/schemas/project/1');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/schema+json; charset=utf-8');
    expect(answer.body).toEqual(projectSchema);
  });

  it('is the address the advice of a folder without a valid project.json names', async () => {
    const zip = (files: Record<string, string>) => {
      const form = new FormData();
      const folder = new Map(
        Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]),
      );
      form.set('zip', new Blob([writeZip(folder)], { type: 'application/zip' }), 'f.zip');
      return form;
    };
    const page = '<!doctype html><html><head><title>A</title></head><body></body></html>';
    for (const [code, files] of [
      ['project.missing', { 'a.html': page }],
      ['project.schema', { 'project.json': '{"format": 1}', 'a.html': page }],
    ] as const) {
      const answer = await call<{ violations: Array<{ code: string; suggestion?: string }> }>(
        s,
        'POST',
        '/projects/folder',
        { token: s.token, client: 'schemas-test', form: zip(files) },
      );
      expect(answer.status).toBe(422);
      const advice = answer.body.violations.find((v) => v.code === code)?.suggestion ?? '';
      const path = /\/api\/v1\/schemas\/[a-z]+\/\d+/.exec(advice)?.[0];
      expect(path, advice).toBe('/api/v1/schemas/project/1');
      expect(advice).toContain('docs/folder.md');
      const schema = await fetch(new URL(path!, s.url));
      expect(schema.status).toBe(200);
      expect(((await schema.json()) as { $id: string }).$id).toBe('svc://schemas/project/1');
    }
  });

  it('answers 404 for a schema that does not exist, and other methods need credentials', async () => {
    for (const path of [
      '/schemas/project/9',
      '/schemas/nothing/1',
      `/schemas/${'x'.repeat(65)}/1`,
    ]) {
      const answer = await call(s, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.code).toBe('not_found');
    }
    expect((await call(s, 'POST', '/schemas/project/1')).status).toBe(401);
    const post = await call(s, 'POST', '/schemas/project/1', { token: s.token, client: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('leaves the asset interface’s schemas to its callers', async () => {
    const url = `${s.url}/api/v2/schemas/project/1`;
    expect((await fetch(url)).status).toBe(401);
    const answer = await fetch(url, { headers: { authorization: `Bearer ${s.token}` } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(projectSchema);
  });
});
