// The packed `galley`, installed as a person without the repo installs it: `npm install -g` of the
// tarball into a fresh prefix, then the installed command runs outside the repo: --version, check
// of the example folder, serve answering /healthz and opening a folder on a thread of its pool
// (piscina's worker and the pool's task file packed beside the chunks), and the commands again with
// code caches V8 refuses (scripts/packed-galley.ts compiles the chunks then). Its dependencies come
// from the npm registry (skipped, with the reason printed, when the registry cannot be reached).
// Install scripts are not run: compiling SQLite takes minutes here, so better-sqlite3 gets the
// binding the workspace built for this very Node and version (the packed package pins that
// version).
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { packCli } from '../scripts/pack.js';
import { readInput } from '../src/lib/read-input.js';
import { checkZip } from '@galley/core';
import { folderOf, removeDirectory, repo, zipped } from './support/galley.js';
import { largeFolder } from './support/large-folder.js';

vi.setConfig({ testTimeout: 300_000 });
const exec = promisify(execFile);

async function registryProblem(): Promise<string | undefined> {
  try {
    await exec('npm', ['ping'], { timeout: 20_000 });
    return undefined;
  } catch (error) {
    return `the npm registry cannot be reached (${(error as Error).message.split('\n')[0]})`;
  }
}

const unreachable = await registryProblem();
if (unreachable) console.warn(`skipped: ${unreachable}`);

describe.skipIf(!!unreachable)('npm install -g of the packed galley', () => {
  let dir: string;
  let galleyBin: string;
  let codeCaches: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'galley-pack-test-'));
    const tarball = await packCli(join(dir, 'out'));
    const prefix = join(dir, 'prefix');
    await exec(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        tarball,
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
      ],
      { timeout: 240_000 },
    );
    const installed = join(prefix, 'lib/node_modules/@galley/cli/node_modules/better-sqlite3');
    const workspace = dirname(
      createRequire(join(repo, 'packages/store/package.json')).resolve(
        'better-sqlite3/package.json',
      ),
    );
    await cp(
      join(workspace, 'build/Release/better_sqlite3.node'),
      join(installed, 'build/Release/better_sqlite3.node'),
    );
    galleyBin = join(prefix, 'bin/galley');
    codeCaches = join(
      prefix,
      'lib/node_modules/@galley/cli/dist/code-cache',
      `${process.versions.v8}-${process.arch}`,
    );
  }, 300_000);
  afterAll(() => removeDirectory(dir));

  const run = (args: string[]) =>
    exec(galleyBin, args, { cwd: dir, env: { ...process.env, GALLEY_DATABASE_URL: '' } });

  it('galley --version, and check of the example folder, run outside the repo', async () => {
    const { version } = JSON.parse(await readFile(join(repo, 'apps/cli/package.json'), 'utf8')) as {
      version: string;
    };
    expect((await run(['--version'])).stdout).toBe(`${version}\n`);
    const checked = await run(['check', join(repo, 'examples/site')]);
    expect(checked.stdout).toMatch(/: passed\n/);
    // A small folder's check loads only what it uses: not node:zlib (its ZIP is stored), and,
    // piped, not node:tty with node:net and the streams (its output goes to the descriptors).
    const loads = join(dir, 'loads.cjs');
    await writeFile(
      loads,
      "process.on('exit', () => require('node:fs').writeSync(2, process.moduleLoadList.filter((m) => / (zlib|tty|net|stream)$/.test(m)).join()));",
    );
    const traced = await exec(galleyBin, ['check', join(repo, 'examples/site')], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: `--require ${loads}` },
    });
    expect(traced.stdout).toMatch(/: passed\n/);
    expect(traced.stderr).toBe('');
  });

  it('galley check of a large folder reports exactly as the core does', async () => {
    const zip = zipped(largeFolder());
    const zipPath = join(dir, 'large.zip');
    await writeFile(zipPath, zip);
    // Findings: exit 1, which execFile gives as a rejection carrying the output.
    const checked = await run(['check', zipPath, '--json']).then(
      () => ({ code: 0, stdout: '' }),
      (failed: { code: number; stdout: string }) => failed,
    );
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe(`${JSON.stringify(checkZip(zip))}\n`);
  });

  it('galley check reads character references as the core does, on both of its page readers', async () => {
    // Named references decode with the table the bundle builds on first use (bundle-options.ts):
    // in attributes and text read by the scanner, and in a page with inline SVG read by the Parser.
    const project = {
      format: 1,
      title: 'References',
      media: { id: 'web', version: 1 },
      pages: ['index.html', 'about.html'].map((file) => ({
        file,
        title: file,
        public_url: `/${file}`,
      })),
    };
    const html = (body: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>T&eacute;</title></head><body>${body}</body></html>`;
    const zip = zipped(
      folderOf({
        'project.json': JSON.stringify(project),
        'index.html': html(
          '<a href="about&period;html">caf&eacute;</a><a href="gone&period;html">x</a>',
        ),
        'about.html': html(
          '<svg><a href="index&period;html"><text>&amp;</text></a></svg><a href="lost&#46;html">y</a>',
        ),
      }),
    );
    const zipPath = join(dir, 'references.zip');
    await writeFile(zipPath, zip);
    const checked = await run(['check', zipPath, '--json']).then(
      () => ({ code: 0, stdout: '' }),
      (failed: { code: number; stdout: string }) => failed,
    );
    expect(checked.code).toBe(1);
    const report = checkZip(zip);
    expect(checked.stdout).toBe(`${JSON.stringify(report)}\n`);
    // Exactly the two missing files, as decoded: the references to existing pages resolved.
    expect(report.violations.map((v) => v.actual).sort()).toEqual(['gone.html', 'lost.html']);
  });

  it('galley serve answers /healthz, sends the screen’s bundles and opens a folder on its pool', async () => {
    const child = spawn(
      galleyBin,
      ['serve', '--port', '0', '--data', join(dir, 'data'), '--workers', '1'],
      {
        cwd: dir,
        env: {
          ...process.env,
          GALLEY_DATABASE_URL: '',
          GALLEY_LOG_LEVEL: 'silent',
          GALLEY_POOL_INLINE_BYTES: '0', // every folder is read on a thread of the pool
        },
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await vi.waitFor(() => expect(output).toMatch(/Galley is at (\S+) /), {
        timeout: 60_000,
        interval: 200,
      });
      const base = /Galley is at (http:\/\/[^\s,]+)/.exec(output)![1]!;
      const health = await fetch(`${base}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
      const script = await fetch(`${base}/assets/galley-screen.min.js`);
      expect(script.status).toBe(200);
      const form = new FormData();
      const { bytes } = readInput(join(repo, 'examples/site'));
      form.append('zip', new Blob([bytes]), 'site.zip');
      const opened = await fetch(`${base}/api/v1/projects/folder`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${/API token:\s+(\S+)/.exec(output)![1]!}`,
          'x-editor-client': 'pack-test',
        },
        body: form,
      });
      expect(opened.status).toBe(201);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('runs the same with code caches V8 refuses (as made for another build of V8)', async () => {
    const caches = await readdir(codeCaches);
    expect(caches).toEqual(expect.arrayContaining(['cli.js.cache']));
    for (const cache of caches) await writeFile(join(codeCaches, cache), 'not a code cache');
    expect((await run(['--help'])).stdout).toMatch(/^Usage: galley/);
    const checked = await run(['check', join(repo, 'examples/site')]);
    expect(checked.stdout).toMatch(/: passed\n/);
  });
});
