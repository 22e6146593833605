import type { BuildOptions, Plugin } from 'esbuild';

/** What every bundle of the CLI shares (scripts/pack.ts, scripts/bundle-check.ts). */
export const cliBundle = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@galley/source'],
  // ES modules first: jsonc-parser's `main` is a UMD build whose require() esbuild cannot follow.
  mainFields: ['module', 'main'],
  logLevel: 'error',
} satisfies BuildOptions;

/**
 * fflate's Node build creates a require and loads worker_threads at its top, for its asynchronous
 * API; Galley uses only the synchronous one, the same code in fflate's plain build.
 */
export const plainFflate: Plugin = {
  name: 'plain-fflate',
  setup(b) {
    b.onResolve({ filter: /^fflate$/ }, (args) =>
      b.resolve('fflate/browser', { resolveDir: args.resolveDir, kind: args.kind }),
    );
  },
};
