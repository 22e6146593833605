// The route table is the one place an operation's method and path are written: the OpenAPI
// documents the service publishes hold exactly its routes, and no source file spells a route's
// path again (the client, the screen, the CLI and the server build theirs from the table).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetRoutes, editingRoutes } from '@galley/core';
import type { RouteTable } from '@galley/core';
import { startTestServer } from '../../../apps/server/test/platform/harness.js';
import type { TestServer } from '../../../apps/server/test/platform/harness.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tables: Array<[string, RouteTable]> = [
  ['/api/v1', editingRoutes],
  ['/api/v2', assetRoutes],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });
}

/** A path with its parameters blanked: `/projects/{}/lock` for `{id}` and for `${project.id}`. */
const blank = (text: string) => text.replace(/\$\{[^}]*\}|\{[A-Za-z0-9_]+\}/g, '{}');

/** The string literals of a source file, comments left out. */
function literals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map(
    ([quoted]) => quoted.slice(1, -1),
  );
}

describe('the route table', () => {
  it('is the only source of the interfaces’ paths', () => {
    const paths = new Set(tables.flatMap(([, t]) => Object.values(t).map((r) => blank(r.path))));
    const roots = [
      'packages/client/src',
      'packages/browser/src',
      'apps/server/src',
      'apps/cli/src',
    ];
    const repeated: string[] = [];
    for (const file of roots.flatMap((root) => sourceFiles(join(repo, root)))) {
      for (const literal of literals(readFileSync(file, 'utf8'))) {
        const text = blank(literal).replace(/[?#].*$/, '');
        // Long enough to be a route (`/projects/{}/lock`), not a word like `/events` in prose.
        const route = [...paths].find((p) => p.split('/').length > 2 && text.endsWith(p));
        if (route) repeated.push(`${relative(repo, file)}: ${literal}`);
      }
    }
    expect(repeated).toEqual([]);
  });

  it('gives no two operations of an interface the same method and path', () => {
    for (const [, table] of tables) {
      const keys = Object.values(table).map((r) => `${r.method} ${r.path}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});

describe('the OpenAPI documents', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('hold exactly the routes of the table, each under its method and path', async () => {
    for (const [root, table] of tables) {
      const res = await fetch(`${s.url}${root}/openapi.json`);
      expect(res.status).toBe(200);
      const document = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
      const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method} ${path}`),
      );
      const declared = Object.values(table).map((r) => `${r.method} ${r.path}`);
      expect(documented.sort()).toEqual(declared.sort());
    }
  });
});
