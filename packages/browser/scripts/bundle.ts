// Builds the browser bundles with esbuild and fails when one breaks its budget:
//   dist/galley.js             the library as one ES module (readable)
//   dist/galley.min.js         the library as one minified script, global `Galley`
//   dist/galley-screen.min.js  the editing screen's page script (uses the global `Galley`)
// Run: `tsx scripts/bundle.ts` (the package's build does); tests call `bundleBrowser()`.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { BuildOptions, Metafile, Plugin } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** At most 150 KB gzipped for the library script (issue 6). */
export const GZIP_BUDGET_BYTES = 150 * 1024;
/** At most 200 KB gzipped for all the screen's JavaScript, the checks included (issue 18). */
export const SCREEN_BUDGET_BYTES = 200 * 1024;

export interface BundleReport {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly budget: number | null;
}

export class BundleError extends Error {
  constructor(
    readonly code: 'over_budget' | 'node_import' | 'eval',
    message: string,
  ) {
    super(message);
    this.name = 'BundleError';
  }
}

/**
 * zod registers every locale on its `z` namespace, which defeats tree shaking (about 260 KB
 * minified). The core's messages are English, so the bundle keeps English only.
 */
const englishOnlyZod: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer)
        ? { path: args.importer, namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "../locales/en.js";',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/** What every bundle of this package is built with (tests build parts of the screen with it). */
export const common: BuildOptions = {
  bundle: true,
  platform: 'browser',
  target: ['es2022'],
  conditions: ['@galley/source'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  plugins: [englishOnlyZod],
  metafile: true,
  write: false,
  logLevel: 'silent',
};

interface Output {
  readonly file: string;
  readonly options: BuildOptions;
  readonly budget: number | null;
}

const outputs: readonly Output[] = [
  {
    file: 'galley.js',
    options: { entryPoints: [join(packageDir, 'src/index.ts')], format: 'esm' },
    budget: null,
  },
  {
    file: 'galley.min.js',
    options: {
      entryPoints: [join(packageDir, 'src/index.ts')],
      format: 'iife',
      globalName: 'Galley',
      minify: true,
    },
    budget: GZIP_BUDGET_BYTES,
  },
  {
    file: 'galley-screen.min.js',
    options: {
      entryPoints: [join(packageDir, 'src/screen/main.ts')],
      format: 'iife',
      minify: true,
    },
    budget: null,
  },
];

function refuseNodeImports(file: string, metafile: Metafile): void {
  const inputs = Object.values(metafile.inputs).flatMap((input) => input.imports);
  const node = inputs.find((imported) => imported.path.startsWith('node:') || imported.external);
  if (node) throw new BundleError('node_import', `${file}: imports ${node.path}`);
}

/** Writes next to the destination, then renames: concurrent builds never serve half a file. */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

export interface BundleOptions {
  /** Where the files go; `dist/` of this package by default. */
  readonly outDir?: string;
  /** The gzipped budget of the library script; 150 KB by default. */
  readonly budget?: number;
}

/** The screen's style sheets that live beside their components, as one file. */
async function screenCss(): Promise<Uint8Array> {
  const { editorCss } = await import('../src/screen/editor/editor.css.js');
  const { historyCss } = await import('../src/screen/editor/history.css.js');
  return new TextEncoder().encode(editorCss + historyCss);
}

/** Builds every bundle and returns their sizes; throws `BundleError` when one breaks a rule. */
export async function bundleBrowser(options: BundleOptions = {}): Promise<readonly BundleReport[]> {
  const outDir = options.outDir ?? join(packageDir, 'dist');
  await mkdir(outDir, { recursive: true });
  const reports: BundleReport[] = [];
  for (const output of outputs) {
    const { file, options: buildOptions } = output;
    const budget = output.budget === null ? null : (options.budget ?? output.budget);
    const result = await build({ ...common, ...buildOptions, outfile: join(outDir, file) });
    refuseNodeImports(file, result.metafile!);
    const bytes = result.outputFiles![0]!.contents;
    if (/\beval\s*\(/.test(new TextDecoder().decode(bytes)))
      throw new BundleError('eval', `${file}: calls eval, which a strict CSP forbids`);
    const gzipBytes = gzipSync(bytes, { level: 9 }).length;
    if (budget !== null && gzipBytes > budget)
      throw new BundleError(
        'over_budget',
        `${file}: ${kb(gzipBytes)} gzipped, over the budget of ${kb(budget)}`,
      );
    await writeAtomically(join(outDir, file), bytes);
    reports.push({ file, bytes: bytes.length, gzipBytes, budget });
  }
  const screenTotal = reports
    .filter((r) => r.file.endsWith('.min.js'))
    .reduce((sum, r) => sum + r.gzipBytes, 0);
  if (screenTotal > SCREEN_BUDGET_BYTES)
    throw new BundleError(
      'over_budget',
      `the screen's scripts: ${kb(screenTotal)} gzipped in all, over the budget of ${kb(SCREEN_BUDGET_BYTES)}`,
    );
  await writeAtomically(join(outDir, 'galley-screen.css'), await screenCss());
  return reports;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const reports = await bundleBrowser();
    for (const r of reports) {
      const budget = r.budget === null ? '' : ` (budget ${kb(r.budget)})`;
      console.log(`dist/${r.file}: ${kb(r.bytes)}, ${kb(r.gzipBytes)} gzipped${budget}`);
    }
    const screen = reports.filter((r) => r.file.endsWith('.min.js'));
    const total = screen.reduce((sum, r) => sum + r.gzipBytes, 0);
    console.log(
      `the screen's JavaScript: ${kb(total)} gzipped in all (budget ${kb(SCREEN_BUDGET_BYTES)})`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
