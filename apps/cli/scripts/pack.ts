// Packs the `galley` command into one npm tarball that installs on a machine without the repo:
//   dist/galley.js   the command: loads dist/cli.js, the CLI with the core, the store and the
//                    server bundled into CommonJS chunks beside it that each command loads when
//                    it runs, with the V8 code caches of dist/code-cache/ (packed-galley.ts)
//   dist/browser/    the editing screen's bundles, which the server sends as they are
//   package.json     bin `galley`; only what cannot be bundled stays a dependency: better-sqlite3
//                    (native) and the Fontsource fonts the service seeds (read as files)
// Run: `tsx scripts/pack.ts [--out DIR] [--install]` (prints the tarball's path; --install also
// runs `npm install -g` on it). Tests call `packCli()`.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, transform } from 'esbuild';
import type { Plugin } from 'esbuild';
import { bundleBrowser } from '../../../packages/browser/scripts/bundle.js';
import { cliBundle, lazyEntityTree, lazyFflate, lazySaxes } from './bundle-options.js';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const repo = join(cliDir, '../..');

interface Manifest {
  name: string;
  version: string;
  description?: string;
  license?: string;
  dependencies?: Record<string, string>;
}
const manifestOf = async (dir: string): Promise<Manifest> =>
  JSON.parse(await readFile(join(repo, dir, 'package.json'), 'utf8')) as Manifest;

/**
 * Packages that stay real dependencies: native addons, built or fetched for the machine that
 * installs (better-sqlite3, argon2), and the font files the service reads and seeds.
 */
const installed = [
  'better-sqlite3',
  '@node-rs/argon2',
  '@fontsource/inter',
  '@fontsource/merriweather',
] as const;
const workspacePackages = ['packages/core', 'packages/store', 'apps/server', 'apps/cli'];

/** Required only by code paths Galley never takes (pg's native binding, piscina's optional one). */
const neverLoaded = ['pg-native', '@napi-rs/nice'];

/**
 * The installed packages at the very versions the workspace builds and tests with (resolved
 * from the workspace package that depends on each), not a range that may pick another.
 */
async function dependencies(): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const name of installed) {
    for (const dir of workspacePackages) {
      if ((await manifestOf(dir)).dependencies?.[name] === undefined) continue;
      const resolveFrom = createRequire(join(repo, dir, 'package.json'));
      versions[name] = (resolveFrom(`${name}/package.json`) as Manifest).version;
      break;
    }
    if (versions[name] === undefined) throw new Error(`no workspace package depends on ${name}`);
  }
  return versions;
}

/**
 * The installed packages are loaded with `require` where the bundle first uses them, not
 * imported at its top as esbuild leaves external ES imports: `galley --help` then loads no
 * native addon, and a command that needs none runs where better-sqlite3 is not built.
 */
const requiredWhereUsed: Plugin = {
  name: 'required-where-used',
  setup(b) {
    const names = new RegExp(`^(${installed.join('|')})$`);
    b.onResolve({ filter: names }, (args) =>
      // The module below requires the package itself: that require is left to Node.
      args.namespace === 'required'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'required' },
    );
    b.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * commander requires node:child_process at its top for executable subcommands, which `galley`
 * has none of: there it is loaded when first used (never), not by every start-up.
 */
const lazyChildProcess: Plugin = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'lazy-child-process' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents:
        "let m; module.exports = new Proxy({}, { get: (_, key) => (m ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

/** piscina's folder of built files, as the server resolves it. */
const piscinaDist = dirname(
  createRequire(join(repo, 'apps/server/package.json')).resolve('piscina'),
);
const piscinaWorkerFile = "(__dirname, 'worker.js')";

/**
 * piscina starts each thread of the server's pool from its own worker.js beside it, which loads
 * the pool's task file; packed, both sit beside the chunks, where the task file is worker.js
 * (work-pool.ts), so piscina's is packed as piscina-worker.js and piscina told so.
 */
const piscinaWorker: Plugin = {
  name: 'piscina-worker',
  setup(b) {
    b.onLoad({ filter: /[\\/]piscina[\\/]dist[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes(piscinaWorkerFile))
        throw new Error(`piscina no longer names ${piscinaWorkerFile}: see scripts/pack.ts`);
      const contents = source.replace(piscinaWorkerFile, "(__dirname, 'piscina-worker.js')");
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The CLI as CommonJS chunks in `dir`: esbuild splits it as ES modules (only that format splits),
 * then each chunk becomes CommonJS. Node starts CommonJS faster (no ES module loader: about a
 * fifth of `galley --version`), and only a CommonJS function can be compiled with a code cache
 * (see packed-galley.ts). cli.js is the program; beside it, the scripts the server's pool
 * threads start from: worker.js and piscina-worker.js.
 */
async function bundleCli(dir: string): Promise<void> {
  const { outputFiles } = await build({
    entryPoints: {
      cli: join(cliDir, 'src/bin.ts'),
      worker: join(repo, 'apps/server/src/pool/worker.ts'),
      'piscina-worker': join(piscinaDist, 'worker.js'),
    },
    outdir: dir,
    splitting: true,
    chunkNames: '[name]-[hash]', // beside galley.js: `../package.json` is the package's from each
    ...cliBundle,
    external: neverLoaded,
    plugins: [
      requiredWhereUsed,
      lazyChildProcess,
      lazyFflate,
      lazySaxes,
      lazyEntityTree,
      piscinaWorker,
    ],
    minify: true,
    legalComments: 'linked',
    write: false,
  });
  for (const file of outputFiles) {
    if (!file.path.endsWith('.js')) {
      await writeFile(file.path, file.contents);
      continue;
    }
    const chunk = await transform(file.text.replace(/^#!.*\n/, ''), {
      format: 'cjs',
      target: 'node20',
      minify: true,
      supported: { 'dynamic-import': false }, // import() of a chunk becomes its require()
      define: { 'import.meta.url': 'galleyModuleUrl' },
      logLevel: 'error',
    });
    const moduleUrl = 'var galleyModuleUrl = require("node:url").pathToFileURL(__filename).href;';
    const uses = chunk.code.includes('galleyModuleUrl');
    await writeFile(file.path, uses ? `${moduleUrl}\n${chunk.code}` : chunk.code);
  }
  await build({
    entryPoints: [join(cliDir, 'scripts/packed-galley.ts')],
    outfile: join(dir, 'galley.js'),
    ...cliBundle,
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
  });
}

/**
 * What the code caches are made of: the short commands a person runs and waits for. Another
 * command compiles what its caches lack, as without them.
 */
const sampleRuns = [['check', join(repo, 'examples/site')], ['--help'], ['--version']];

/** Runs the sample commands on the bundle in `dir`, each adding to the caches of what it ran. */
function makeCodeCaches(dir: string): void {
  const galley = join(dir, 'galley.js');
  const sample = `process.argv.splice(1, 0, ${JSON.stringify(galley)});
const packed = require(${JSON.stringify(galley)});
process.on('exit', packed.writeCodeCaches);
packed.run();`;
  for (const args of sampleRuns)
    execFileSync(process.execPath, ['-e', sample, ...args], { cwd: tmpdir(), stdio: 'ignore' });
}

/** Writes the package to pack into `dir`: the bundle, the screen's bundles, a package.json. */
export async function stageCli(dir: string): Promise<Manifest> {
  const cli = await manifestOf('apps/cli');
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'dist'), { recursive: true });
  await bundleCli(join(dir, 'dist'));
  await bundleBrowser({ outDir: join(dir, 'dist/browser') });
  await rm(join(dir, 'dist/browser/galley.js')); // the readable library: the server sends only the rest
  const manifest = {
    name: cli.name,
    version: cli.version,
    description: 'Galley: an open service for editing web and display-media projects',
    type: 'commonjs', // the bundle (the screen's bundles are only sent, never loaded by Node)
    private: true, // installed from its tarball, never published
    bin: { galley: 'dist/galley.js' },
    engines: { node: '>=20.19' },
    files: ['dist'],
    dependencies: await dependencies(),
  };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  makeCodeCaches(join(dir, 'dist')); // the commands run as installed: the manifest is needed
  return manifest;
}

/** Stages the package and packs it into `outDir`; answers the tarball's path. */
export async function packCli(outDir: string): Promise<string> {
  const stage = await mkdtemp(join(tmpdir(), 'galley-pack-'));
  try {
    await stageCli(stage);
    await mkdir(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], {
      cwd: stage,
      encoding: 'utf8',
    });
    const [{ filename }] = JSON.parse(out) as [{ filename: string }];
    return join(outDir, filename);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, install: { type: 'boolean' } },
  });
  const tarball = await packCli(values.out ?? join(cliDir, 'pack'));
  console.log(tarball);
  if (values.install) execFileSync('npm', ['install', '--global', tarball], { stdio: 'inherit' });
}
