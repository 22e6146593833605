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
 * fflate as the CLI needs it: its plain build (the Node one creates a require and loads
 * worker_threads at its top, for an asynchronous API Galley does not use), loaded when first
 * called. fflate builds its Huffman tables as it loads, a few ms of every start of `check`, yet
 * the CLI reads and writes ZIPs with node:zlib (nodeZipCodec, zipFolder) and calls fflate only
 * for an entry node:zlib refuses. The core imports these three names of it (zip/inflate.ts,
 * zip/write.ts); a name it newly imports fails the build here, not at run time.
 */
export const lazyFflate: Plugin = {
  name: 'lazy-fflate',
  setup(b) {
    b.onResolve({ filter: /^fflate$/ }, (args) => ({
      path: 'fflate',
      namespace: 'lazy-fflate',
      pluginData: { resolveDir: args.resolveDir },
    }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-fflate' }, (args) => ({
      // esbuild bundles the required module and runs its top level at the first require.
      contents: `let fflate;
const loaded = () => (fflate ??= require('fflate/browser'));
export const inflateSync = (...args) => loaded().inflateSync(...args);
export const deflateSync = (...args) => loaded().deflateSync(...args);
export function Inflate(...args) { return new (loaded().Inflate)(...args); }`,
      loader: 'js',
      resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
    }));
  },
};
