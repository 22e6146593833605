// Shared vitest settings: tests run against each package's src through aliases (no build needed),
// and every run writes a JSON report that scripts/run-tests.mjs sums into one closing line.
import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export const galleyAliases = {
  // Before '@galley/core', which would otherwise take it as a folder of src/index.ts.
  '@galley/core/folder': `${root}packages/core/src/folder.ts`,
  '@galley/core': `${root}packages/core/src/index.ts`,
  '@galley/store/ids': `${root}packages/store/src/ids.ts`,
  '@galley/store': `${root}packages/store/src/index.ts`,
  '@galley/client': `${root}packages/client/src/index.ts`,
  '@galley/mcp': `${root}packages/mcp/src/index.ts`,
  '@galley/browser': `${root}packages/browser/src/index.ts`,
  '@galley/server': `${root}apps/server/src/index.ts`,
};

export function galleyVitestConfig(
  name: string,
  extra: ViteUserConfig['test'] = {},
): ViteUserConfig {
  return defineConfig({
    resolve: { alias: galleyAliases },
    test: {
      include: ['test/**/*.test.ts'],
      reporters: ['default', 'json'],
      outputFile: { json: `${root}.reports/${name}.json` },
      passWithNoTests: true,
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...extra,
    },
  });
}
