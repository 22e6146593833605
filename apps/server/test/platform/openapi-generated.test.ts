// What a newcomer gets from the documents with openapi-typescript and openapi-fetch (issue #21):
// the types generated from docs/api are those checked in beside the quickstart
// (generated-client/), the quickstart written against them typechecks with no cast and no
// `any`, and it runs both interfaces' walk against a real service.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES, clientTypes } from '../../scripts/client-types.js';
import { page, projectJson, zipOf } from '../v1/helpers.js';
import { png } from '../v2/helpers.js';
import { assetQuickstart, editingQuickstart } from './generated-client/quickstart.js';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const folder = fileURLToPath(new URL('generated-client/', import.meta.url));

/** docs/quickstart.md's folder: one page whose `<main id="main">` the walk inserts into. */
function hello(): Uint8Array {
  const encoder = new TextEncoder();
  const files = {
    'project.json': projectJson('Hello', [{ file: 'index.html', title: 'Home', public_url: '/' }]),
    'index.html': page('Home', '<main id="main"><h1>Hello</h1></main>'),
    'style.css': 'body { margin: 0; }\n',
  };
  return zipOf(new Map(Object.entries(files).map(([name, text]) => [name, encoder.encode(text)])));
}

describe('a client generated from the documents', () => {
  it('is typed by what openapi-typescript makes of docs/api (as checked in)', async () => {
    for (const [name, path] of CLIENT_TYPES) {
      const document = await readFile(`${repo}docs/api/${name}`, 'utf8');
      const checkedIn = await readFile(`${repo}apps/server/${path}`, 'utf8');
      const regenerate = 'regenerate with `pnpm --filter @galley/server api-docs`';
      expect(checkedIn, `${path} is out of date: ${regenerate}`).toBe(
        await clientTypes(document, name),
      );
    }
  });

  it('has a quickstart that typechecks with no cast and no `any`', async () => {
    const source = await readFile(`${folder}quickstart.ts`, 'utf8');
    // Comments and imports (`components as Editing` renames) left out: the code itself.
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$|^import [^;]*;$/gm, '');
    expect(code).not.toMatch(/\bas\s+(?!const\b)[A-Za-z{[(]/);
    expect(code).not.toMatch(/\bany\b/);
    await run(`${repo}node_modules/.bin/tsc`, ['-p', 'tsconfig.json'], {
      cwd: folder,
      timeout: 240_000,
    }).catch((error: { stdout?: string }) => {
      throw new Error(`the quickstart does not typecheck:\n${error.stdout}`);
    });
  }, 300_000);

  describe('against a real service', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer();
    });
    afterAll(() => s?.close());
    const setup = () => ({ baseUrl: s.url, token: s.token });

    it('walks the editing interface: a project from a ZIP to its folder exported', async () => {
      const walk = await editingQuickstart(setup(), hello());
      expect(walk.created.status).toBe(201);
      expect(walk.created.body).toMatchObject({ title: 'Hello', role: 'owner', revision: 1 });
      expect(walk.pages.body.pages.map((p) => p.file)).toEqual(['index.html']);
      expect(walk.lock.body.lock).toMatchObject({ kind: 'agent', label: 'quickstart' });
      expect(walk.draft.body.html).toContain('<main id="main">');
      expect(walk.changed.body.result.ids).toEqual(['news']);
      expect(walk.saved.status).toBe(200);
      expect(walk.saved.body.revision).toBe(2);
      expect(walk.released).toBe(204);
      expect(walk.exported.status).toBe(200);
      expect(walk.exported.sha256).toBe(walk.exported.declared);
    });

    it('walks the asset interface: a blob, two registrations, a revision, a file', async () => {
      const logo = png(300, 250);
      const icon = png(64, 64);
      const walk = await assetQuickstart(setup(), logo, icon);
      expect(walk.blob.status).toBe(201);
      expect(walk.blob.body.size).toBe(logo.byteLength);
      expect(walk.byJson.status).toBe(201);
      expect(walk.byJson.body.asset.revision.files).toEqual([
        expect.objectContaining({ path: 'logo.png', sha256: walk.blob.body.sha256 }),
      ]);
      expect(walk.byForm.status).toBe(201);
      expect(walk.byForm.body.asset.revision.files.map((f) => f.path)).toEqual(['icon.png']);
      expect(walk.revised.status).toBe(201);
      expect(walk.revised.body.asset.revision.number).toBe(2);
      expect(walk.conflict).toEqual({ status: 409, current_revision: 2 });
      expect(walk.read.status).toBe(200);
      expect(walk.next.status).toBe(201);
      expect(walk.read.sha256).toBe(walk.next.body.sha256);
    });
  });
});
