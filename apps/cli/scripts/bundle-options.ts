import { readFile } from 'node:fs/promises';
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
 * A package the core imports, bundled as usual but run when first called rather than as the CLI
 * starts (esbuild runs a required module's top level at its first require): `functions` are
 * called, `classes` constructed with `new`. Only these names are exported, so a name the core
 * newly imports fails the build here, not at run time.
 */
function lazyPackage(
  name: string,
  entry: string,
  { functions = [], classes = [] }: { functions?: string[]; classes?: string[] },
): Plugin {
  const namespace = `lazy-${name}`;
  const contents = [
    `let loadedModule;`,
    `const loaded = () => (loadedModule ??= require(${JSON.stringify(entry)}));`,
    ...functions.map((f) => `export const ${f} = (...args) => loaded().${f}(...args);`),
    ...classes.map((c) => `export function ${c}(...args) { return new (loaded().${c})(...args); }`),
  ].join('\n');
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${name}$`) }, (args) =>
        // The module below requires the package itself: that require is resolved as usual.
        args.namespace === namespace
          ? undefined
          : { path: name, namespace, pluginData: { resolveDir: args.resolveDir } },
      );
      b.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents,
        loader: 'js',
        resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
      }));
    },
  };
}

/**
 * fflate as the CLI needs it: its plain build (the Node one creates a require and loads
 * worker_threads at its top, for an asynchronous API Galley does not use), loaded when first
 * called. fflate builds its Huffman tables as it loads, a few ms of every start of `check`, yet
 * the CLI reads and writes ZIPs with node:zlib (nodeZipCodec, zipFolder) and calls fflate only
 * for an entry node:zlib refuses. The core imports these three names of it (zip/inflate.ts,
 * zip/write.ts).
 */
export const lazyFflate = lazyPackage('fflate', 'fflate/browser', {
  functions: ['inflateSync', 'deflateSync'],
  classes: ['Inflate'],
});

/**
 * saxes, which reads SVG files (files/svg.ts), loaded when an SVG is first read: its character
 * classes (xmlchars) build large Unicode regular expressions as it loads, about 1 ms of every
 * start of `check`, for folders that mostly hold no SVG.
 */
export const lazySaxes = lazyPackage('saxes', 'saxes', { classes: ['SaxesParser'] });

/** The edits of lazyEntityTree, by the file of `entities` or htmlparser2 they are made in. */
const entityTreeEdits: readonly { file: RegExp; from: string; to: string }[] = [
  {
    file: /[\\/]entities[\\/]dist[\\/]generated[\\/]decode-data-html\.js$/,
    from: 'export const htmlDecodeTree = /* #__PURE__ */ decodeTrieDict(',
    to: 'let tree;\nexport const htmlDecodeTree = () => tree ??= decodeTrieDict(',
  },
  {
    file: /[\\/]entities[\\/]dist[\\/]decode\.js$/,
    from: 'const decodeTree = htmlDecodeTree;',
    to: 'const decodeTree = htmlDecodeTree();',
  },
  {
    file: /[\\/]htmlparser2[\\/]dist[\\/]Tokenizer\.js$/,
    from: 'xmlMode ? xmlDecodeTree : htmlDecodeTree,',
    to: 'xmlMode ? xmlDecodeTree : htmlDecodeTree(),',
  },
];

/**
 * The table of HTML's named character references is built when first used, not as the CLI
 * loads: `entities` decodes it from a string at its top, about 3 ms of every start of `check`,
 * yet pages are read by the core's scanner, which decodes only text holding an `&`. The table's
 * one export becomes a function returning it, and both places that read it (entities' decoder,
 * htmlparser2's Tokenizer) call it. An edit that no longer matches its file fails the build, as
 * does any other package file that names the table (it would read a function).
 */
export const lazyEntityTree: Plugin = {
  name: 'lazy-entity-tree',
  setup(b) {
    for (const edit of entityTreeEdits)
      b.onLoad({ filter: edit.file }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (source.split(edit.from).length !== 2)
          throw new Error(
            `${args.path} no longer reads "${edit.from}" once: see bundle-options.ts`,
          );
        return { contents: source.replace(edit.from, edit.to), loader: 'js' };
      });
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
      if ((await readFile(args.path, 'utf8')).includes('htmlDecodeTree'))
        throw new Error(`${args.path} reads htmlDecodeTree, made lazy: see bundle-options.ts`);
      return undefined;
    });
  },
};
