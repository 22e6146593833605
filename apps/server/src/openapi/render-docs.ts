import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@galley/store';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openApiMarkdown } from './markdown.js';

/** The files of docs/api/, rendered from the registries of an app on a throwaway store. */
export async function renderApiDocs(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'galley-docs-'));
  const store = await openStore({ kind: 'sqlite', dataDir });
  const config = loadConfig({}, { dataDir, baseUrl: 'http://localhost:8080', logLevel: 'silent' });
  const galley = createApp({ store, clock: store.clock, config });
  try {
    const files: Record<string, string> = {};
    for (const [version, registry] of Object.entries(galley.registries)) {
      const document = registry.document();
      files[`${version}.openapi.json`] = `${JSON.stringify(document, null, 2)}\n`;
      files[`${version}.md`] = `${openApiMarkdown(document)}\n`;
    }
    return files;
  } finally {
    await galley.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
