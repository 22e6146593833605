// The core runs in browsers: bundle it as a browser would get it and prove it needs nothing from
// Node and evaluates no strings (a strict CSP forbids `eval` and `new Function`).
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Core from '@galley/core';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
/**
 * As packages/browser does: switch zod to jitless before any schema is built (zod otherwise
 * probes `new Function` when its first object schema is made), then load the core.
 */
const browserEntry = `import 'galley:zod-jitless';\nexport * from './src/index.ts';`;
const zodJitless: Plugin = {
  name: 'zod-jitless',
  setup(b) {
    b.onResolve({ filter: /^galley:zod-jitless$/ }, (args) => ({
      path: args.path,
      namespace: 'galley',
    }));
    b.onLoad({ filter: /.*/, namespace: 'galley' }, () => ({
      contents: `import { z } from 'zod';\nz.config({ jitless: true });`,
      resolveDir: packageDir,
    }));
  },
};
/** Packages that only exist on a server, beside Node's built-in modules. */
const serverOnly = ['express', 'better-sqlite3', 'pg', 'kysely'];
const nodeOnly = new Set([...builtinModules, ...serverOnly]);

function isNodeOnly(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true;
  const bare = specifier.startsWith('@') ? specifier : specifier.split('/')[0]!;
  return nodeOnly.has(bare) || nodeOnly.has(specifier);
}

/** Records every Node-only import (and who made it) instead of letting the bundle fail on the first. */
function nodeImports(found: string[]): Plugin {
  return {
    name: 'node-only-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!isNodeOnly(args.path)) return undefined;
        found.push(`${args.path} (imported by ${args.importer.replace(/.*node_modules\//, '')})`);
        return { path: args.path, external: true };
      });
    },
  };
}

let bundle = '';
const nodeOnlyImports: string[] = [];

beforeAll(async () => {
  const result = await build({
    stdin: {
      contents: browserEntry,
      resolveDir: packageDir,
      sourcefile: 'browser-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'GalleyCore',
    conditions: ['@galley/source'],
    logLevel: 'silent',
    plugins: [zodJitless, nodeImports(nodeOnlyImports)],
  });
  bundle = result.outputFiles[0]!.text;
});

/** The source module of a position in the bundle, from the `// path` comments esbuild writes. */
function moduleAt(index: number): string {
  const comments = [...bundle.slice(0, index).matchAll(/^\s*\/\/ (\S+\.[cm]?[jt]s)$/gm)];
  return comments.at(-1)?.[1]?.replace(/.*node_modules\//, '') ?? 'unknown';
}

describe('the browser bundle of @galley/core', () => {
  it('imports nothing that exists only in Node', () => {
    expect(bundle.length).toBeGreaterThan(0);
    expect(nodeOnlyImports).toEqual([]);
  });

  it('contains no eval( and no new Function', () => {
    expect(
      [...bundle.matchAll(/\beval\s*\(|\bnew\s+Function\b/g)].map((m) => moduleAt(m.index)),
    ).toEqual([]);
  });

  it('aliases the Function constructor only in zod’s JIT, which the browser entry switches off', () => {
    // zod probes `const F = Function; new F("")` unless `z.config({ jitless: true })`, which
    // packages/browser does first; any other alias would dodge the check above.
    const aliases = [...bundle.matchAll(/[=(,:]\s*(?:globalThis\.)?Function\b(?![\w.])/g)];
    const owners = new Set(aliases.map((m) => moduleAt(m.index)));
    for (const owner of owners) expect(owner).toMatch(/^zod\/v4\/core\//);
  });

  it('loads and reads and writes ZIPs where evaluating strings is forbidden', () => {
    const context = createContext(
      {
        console,
        TextEncoder,
        TextDecoder,
        URL,
        URLSearchParams,
        atob,
        btoa,
        queueMicrotask,
        crypto: globalThis.crypto,
      },
      { codeGeneration: { strings: false, wasm: false } },
    );
    // Count attempts too: code that catches the CSP error would otherwise go unnoticed.
    runInContext(
      `globalThis.attempts = [];
       globalThis.Function = new Proxy(Function, {
         construct() { attempts.push('new Function'); throw new EvalError('blocked by CSP'); },
         apply() { attempts.push('Function()'); throw new EvalError('blocked by CSP'); },
       });
       globalThis.eval = () => { attempts.push('eval'); throw new EvalError('blocked by CSP'); };`,
      context,
    );
    runInContext(bundle, context);
    const { core, attempts } = runInContext('({ core: GalleyCore, attempts })', context) as {
      core: typeof Core;
      attempts: string[];
    };
    const folder = new Map([
      ['index.html', new TextEncoder().encode('<!doctype html><title>CSP</title>'.repeat(20))],
      ['logo.png', Uint8Array.of(0x89, 0x50, 0x4e, 0x47)],
    ]);
    const zip = core.writeZip(folder);
    const read = core.readZip(zip);
    expect(read.violations).toEqual([]);
    expect([...read.folder.keys()]).toEqual(['index.html', 'logo.png']);
    expect(Buffer.from(read.folder.get('index.html')!)).toEqual(
      Buffer.from(folder.get('index.html')!),
    );
    // zod-validated shapes work too (jitless: no generated parsers).
    const report = { checks: { archive: 'passed' }, violations: [], contracts: core.contracts };
    expect(core.CheckReport.parse(report)).toEqual(report);
    expect(attempts).toEqual([]);
  });
});
