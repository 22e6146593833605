import type { Plugin } from 'esbuild';

/**
 * fflate's Node build creates a require and loads worker_threads at its top, for its asynchronous
 * API; Galley uses only the synchronous one, the same code in fflate's plain build. For bundles
 * of the CLI (scripts/pack.ts, scripts/bundle-check.ts).
 */
export const plainFflate: Plugin = {
  name: 'plain-fflate',
  setup(b) {
    b.onResolve({ filter: /^fflate$/ }, (args) =>
      b.resolve('fflate/browser', { resolveDir: args.resolveDir, kind: args.kind }),
    );
  },
};
