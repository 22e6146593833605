import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import { problemOf } from '../http/problem.js';
import { screenCss } from './style.js';

/** The bundles that packages/browser builds into its dist/ (turbo builds it before the server). */
const bundles = new Set(['galley.min.js', 'galley-screen.min.js', 'galley-screen.css']);

/**
 * Where the bundles are: in the packed `galley` (apps/cli/scripts/pack.ts) a `browser/` folder
 * beside this module, which is bundled into it; in the repo, @galley/browser's dist/.
 */
function browserDist(): string {
  const packed = fileURLToPath(new URL('./browser/', import.meta.url));
  if (existsSync(packed)) return packed;
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@galley/browser/package.json')), 'dist');
}

/**
 * `/assets/screen.css` and the two scripts. The scripts are read on each request (they are small
 * and a rebuild must show at once); a missing build is a 503 that says how to make it.
 */
export function screenAssets(): RequestHandler {
  const dist = browserDist();
  return async (req, res) => {
    const name = String(req.params.name);
    if (name === 'screen.css') {
      res.type('text/css; charset=utf-8').send(screenCss);
      return;
    }
    if (!bundles.has(name)) throw problemOf('not_found', { detail: `No asset ${name}.` });
    let script: Buffer;
    try {
      script = await readFile(join(dist, name));
    } catch {
      throw problemOf('bundle_missing', {
        detail: `The browser bundle ${name} is not built: run \`pnpm build\` (or \`pnpm --filter @galley/browser bundle\`).`,
      });
    }
    res.type(name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
    res.send(script);
  };
}
