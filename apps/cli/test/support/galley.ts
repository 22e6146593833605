// The real `galley` process, spawned from its sources (no build needed), and the folders the
// folder-command tests feed it: generated into temporary directories, never checked in.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { writeZip, zipDeflateLevel } from '@galley/core';
import type { Folder } from '@galley/core';
import type { StoreTarget } from '../../../../packages/store/test/stores.js';

export const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(repo, 'apps/cli/src/bin.ts');
// tsx by its path, so that `galley` can run in any working directory.
const tsx = pathToFileURL(join(repo, 'node_modules/tsx/dist/loader.mjs')).href;
export const galleyArgs = ['--import', tsx, '--conditions=@galley/source', bin];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
}

/** Runs `galley …` with piped stdio (so: no terminal, no colours, no progress). */
export function galley(args: string[], options: RunOptions = {}): Promise<Run> {
  const child = spawnGalley(args, options);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The `galley` process itself, for tests that signal it while it runs. */
export function spawnGalley(args: string[], options: RunOptions = {}) {
  return spawn(process.execPath, [...galleyArgs, ...args], {
    cwd: options.cwd ?? repo,
    env: { ...process.env, GALLEY_SERVER: '', GALLEY_TOKEN: '', NO_COLOR: '', ...options.env },
  });
}

export interface Serving {
  child: ChildProcessWithoutNullStreams;
  /** The base URL it printed. */
  url: string;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** Signals it and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `galley serve --port PORT --data DATA …args` in its own process (one worker unless `args` or
 * `env` say otherwise), logging nothing, on SQLite; resolves
 * once it prints where it listens. `limitFileKiB` runs it under `ulimit -f` (a disk that takes no
 * file beyond that size).
 */
export function serveProcess(
  data: string,
  options: {
    port?: string;
    args?: string[];
    env?: Record<string, string>;
    limitFileKiB?: number;
    /** How long it may take to print where it listens (60 s: a start compiles the sources). */
    startTimeoutMs?: number;
  } = {},
): Promise<Serving> {
  const args = ['serve', '--port', options.port ?? '0', '--data', data, ...(options.args ?? [])];
  const env = {
    ...process.env,
    GALLEY_LOG_LEVEL: 'silent',
    GALLEY_DATABASE_URL: '',
    // One process unless a test asks for workers (serve-workers.test.ts): each worker compiles
    // the sources as it starts, which a loaded host makes slow.
    GALLEY_WORKERS: '1',
    ...options.env,
  };
  const child =
    options.limitFileKiB === undefined
      ? spawn(process.execPath, [...galleyArgs, ...args], { cwd: repo, env })
      : spawn(
          'bash',
          [
            '-c',
            `ulimit -f ${options.limitFileKiB} && exec "$@"`,
            'serve',
            process.execPath,
            ...galleyArgs,
            ...args,
          ],
          { cwd: repo, env },
        );
  let output = '';
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      child.on('exit', (code) => resolve(code));
      child.kill(signal);
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start: ${output}`)),
      options.startTimeoutMs ?? 60_000,
    );
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const url = /Galley is at (https?:\/\/[^\s,]+)[, ].*\(data: /.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ child, url, output: () => output, stop });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${output}`)));
  });
}

/** The data folder and variables of a `galley serve` on the target's database. */
export function storeOf(t: StoreTarget): { data: string; env: Record<string, string> } {
  const options = t.options;
  if (options.kind === 'sqlite') return { data: options.dataDir, env: {} };
  return { data: dirname(options.bytesDir), env: { GALLEY_DATABASE_URL: options.url } };
}

/** Pids of the processes whose log lines (level info) name request ids starting with `prefix`. */
export function pidsOf(output: string, prefix: string): Set<number> {
  const pids = new Set<number>();
  for (const line of output.split('\n')) {
    if (!line.includes(`"reqId":"${prefix}`)) continue;
    pids.add((JSON.parse(line) as { pid: number }).pid);
  }
  return pids;
}

/** Why `galley` cannot be run on a pseudo-terminal here (util-linux `script` is missing). */
export const noTerminal = existsSync('/usr/bin/script')
  ? undefined
  : 'util-linux `script` is not installed, so no pseudo-terminal can be given to the CLI';

/** Runs `galley …` with stdout and stderr on one pseudo-terminal (`script`), as a person sees it. */
export function galleyOnTerminal(args: string[]): Promise<Run> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, ...galleyArgs, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qec', command, '/dev/null'], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '', TERM: 'xterm-256color' },
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
  });
}

const encoder = new TextEncoder();
export type Files = Record<string, string | Uint8Array>;

export function folderOf(files: Files): Map<string, Uint8Array> {
  return new Map(
    Object.entries(files).map(([path, v]) => [path, typeof v === 'string' ? encoder.encode(v) : v]),
  );
}

/** Writes `files` below a new temporary directory; answers its path. */
export async function directoryOf(files: Files, parent?: string): Promise<string> {
  const root = parent ?? (await mkdtemp(join(tmpdir(), 'galley-cli-')));
  for (const [path, bytes] of folderOf(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), bytes);
  }
  return root;
}

/**
 * The deterministic ZIP of a folder as the CLI makes it of a directory (and `galley push`
 * uploads it): node:zlib at the export level, the bytes the server exports for that folder.
 */
export const zipped = (folder: Folder) =>
  writeZip(folder, { deflate: (data) => deflateRawSync(data, { level: zipDeflateLevel }) });

/** True when `run` wrote exactly one line to stderr, `galley: …`, and nothing to stdout. */
export function oneErrorLine(run: Run): boolean {
  return run.stdout === '' && /^galley: [^\n]+\n$/.test(run.stderr);
}

export const removeDirectory = (path: string) => rm(path, { recursive: true, force: true });

/** A real 1×1 PNG. */
export const png = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

export const page = (title: string, body: string, head = '') =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head>\n<body>\n${body}\n</body></html>\n`;

/** A project folder of the web medium that passes every check. */
export function validProject(extra: Files = {}): Files {
  const project = {
    format: 1,
    title: 'Shop',
    media: { id: 'web', version: 1 },
    pages: [
      { file: 'index.html', title: 'Home', public_url: '/' },
      { file: 'about/index.html', title: 'About', public_url: '/about/' },
    ],
  };
  return {
    'project.json': `${JSON.stringify(project, null, 2)}\n`,
    'index.html': page(
      'Home',
      '<h1 id="top">Shop</h1><img src="img/dot.png" alt=""><a href="about/">About</a>',
      '<link rel="stylesheet" href="style.css">',
    ),
    'about/index.html': page('About', '<p>About us</p><a href="../index.html">Home</a>'),
    'style.css': 'body { background: url(img/dot.png); }\n',
    'img/dot.png': png,
    ...extra,
  };
}

/** The shared real-world corpus, read in place (never copied into the project). */
export const corpusSites = join(repo, '../shared/corpus/sites');
export const corpusMissing = existsSync(corpusSites)
  ? undefined
  : `corpus folder ${corpusSites} is absent`;
export const corpusSiteNames = corpusMissing
  ? []
  : readdirSync(corpusSites)
      .filter((name) => statSync(join(corpusSites, name)).isDirectory())
      .sort();

/** Every file below a directory, as folder path → bytes (the reference for the CLI's reader). */
export function readTree(root: string, prefix = ''): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(root).sort()) {
    const at = join(root, name);
    if (statSync(at).isDirectory())
      for (const [path, bytes] of readTree(at, `${prefix}${name}/`)) files.set(path, bytes);
    else files.set(`${prefix}${name}`, new Uint8Array(readFileSync(at)));
  }
  return files;
}
