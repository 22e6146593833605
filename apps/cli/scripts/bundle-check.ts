// The build's second step (after tsc): `galley check` from the repo (dist/commands/check.js) as
// one file with the core it uses, in place of tsc's module. Unbundled, `check` loads some 130
// modules (the core's and its libraries') before it reads a byte; a check in a loop pays for
// each. The CLI's own modules that the program shares with every command
// (io, exit codes and errors, the version) stay imports of their built files, so `run` sees the
// very error classes the command throws. The packed CLI bundles everything (scripts/pack.ts).
// Run: `tsx scripts/bundle-check.ts` (the `build` script does).
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import { cliBundle, lazyEntityTree, lazyFflate, lazySaxes } from './bundle-options.js';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(cliDir, 'dist/commands');
const shared = ['io.ts', 'lib/exit.ts', 'version.ts'].map((file) => join(cliDir, 'src', file));

/** Imports of the shared modules stay imports, of their built files beside the bundle. */
const sharedModules: Plugin = {
  name: 'shared-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const source = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      if (!shared.includes(source)) return undefined;
      const built = join(cliDir, 'dist', relative(join(cliDir, 'src'), source));
      const path = relative(outdir, built).replace(/\.ts$/, '.js');
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
};

await build({
  entryPoints: [join(cliDir, 'src/commands/check.ts')],
  outdir,
  entryNames: '[name]', // beside tsc's other commands
  allowOverwrite: true,
  ...cliBundle,
  // Loaded on a terminal only; resolved from the CLI's own dependencies.
  external: ['cli-progress', 'commander'],
  plugins: [sharedModules, lazyFflate, lazySaxes, lazyEntityTree],
  sourcemap: true,
});
