import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApiDocs } from '../src/openapi/render-docs.js';

describe('docs/api', () => {
  it('is what the code declares (regenerate with `pnpm --filter @galley/server api-docs`)', async () => {
    const files = await renderApiDocs();
    expect(Object.keys(files).sort()).toEqual([
      'v1.md',
      'v1.openapi.json',
      'v2.md',
      'v2.openapi.json',
    ]);
    for (const [name, text] of Object.entries(files)) {
      const committed = readFileSync(new URL(`../../../docs/api/${name}`, import.meta.url), 'utf8');
      expect(committed, `docs/api/${name} is out of date`).toBe(text);
    }
  });
});
