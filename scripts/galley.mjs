#!/usr/bin/env node
// The repo's `galley`: `pnpm galley <command> …` and `pnpm start` (= `--build serve …`).
// It builds what the CLI needs when asked to (`--build`: every time, for `pnpm start`, turbo's
// cache making later builds quick) or when the CLI was never built, showing each package as
// turbo builds it; then runs the CLI in the folder pnpm was called from. Ctrl-C reaches every
// process of the terminal: `galley serve` stops cleanly by itself, and this process only waits
// for it and ends with its exit code, so a clean stop is exit 0 and pnpm reports no failure.
// `pnpm start` runs this with `exec`: otherwise pnpm's `sh -c` (dash) waits in between and dies of
// the Ctrl-C itself, which pnpm reports as "ELIFECYCLE Command failed" whatever this exits with.
// GALLEY_START_BUILD=0 never builds (tests run the built CLI this way).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'apps/cli/dist/bin.js');
let child;
// SIGINT comes to the whole group from the terminal: the child has it already.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child?.kill('SIGTERM'));

/** Runs `command` to its end; resolves with its exit code (128 + n when a signal ended it). */
function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    child = spawn(command, args, { cwd, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      child = undefined;
      resolve(code ?? 128 + ({ SIGINT: 2, SIGTERM: 15 }[signal] ?? 1));
    });
  });
}

const args = process.argv.slice(2);
const build = args[0] === '--build';
if (build) args.shift();
if (process.env.GALLEY_START_BUILD !== '0' && (build || !existsSync(bin))) {
  console.error(
    'Building Galley: each package is listed as it builds (the first build takes a minute or two)…',
  );
  const pnpm = process.platform === 'win32' ? 'pnpm.cmd' : 'pnpm';
  const turbo = ['exec', 'turbo', 'run', 'build', '--filter=@galley/cli...'];
  const built = await run(pnpm, [...turbo, '--output-logs=hash-only'], repo);
  if (built !== 0) {
    console.error('galley: the build failed (its errors are above); nothing was started');
    process.exit(built);
  }
}
// pnpm runs scripts in the repo's root; INIT_CWD is where it was called, where paths start.
process.exit(await run(process.execPath, [bin, ...args], process.env.INIT_CWD ?? process.cwd()));
