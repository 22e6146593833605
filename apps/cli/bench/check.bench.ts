// Benchmark: the whole `galley check` process (the installed `galley`: the packed bundle of
// apps/cli/scripts/pack.ts, as `pnpm galley:install` installs it) on a 20 MB, 1,000-file folder
// ZIP, against a process that only loads the same archive with JSZip and reads every file (what
// a typical Node tool would start from), side by side in one run.
// Writes <repo>/.bench/cli.json. Run: pnpm --filter @galley/cli bench
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { checkZip, writeZip } from '@galley/core';
import { benchFolder } from './folder.js';
import { stageCli } from '../scripts/pack.js';
import { readAll } from './jszip-load.mjs';
import { publish, timedEnv } from './result.js';

// Issue #20: the check process faster than a process that only loads the ZIP with JSZip.
const goal = 1;
const rounds = 9;
const jszipLoad = fileURLToPath(new URL('./jszip-load.mjs', import.meta.url));

interface Timed {
  ms: number;
  status: number | null;
  stdout: string;
}
/** One process from spawn to exit, wall-clock, as a person or a script waits for it. */
function timedProcess(args: string[]): Timed {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: timedEnv,
  });
  const ms = performance.now() - start;
  if (run.error) throw run.error;
  return { ms, status: run.status, stdout: run.stdout };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (n: number) => (n / 1e6).toFixed(1);

const folder = benchFolder();
const zip = writeZip(folder, { deflate: (data) => deflateRawSync(data, { level: 6 }) });
const bytesIn = [...folder.values()].reduce((sum, b) => sum + b.length, 0);
const dir = mkdtempSync(join(tmpdir(), 'galley-cli-bench-'));
const zipPath = join(dir, 'folder.zip');
writeFileSync(zipPath, zip);
const bin = join(dir, 'package/dist/galley.js');

try {
  await stageCli(join(dir, 'package'));
  // Check the output before timing it: the CLI prints the core's report of a passing folder,
  // and the JSZip process really read every file.
  const expected = JSON.stringify(checkZip(zip));
  const checked = timedProcess([bin, 'check', zipPath, '--json']);
  if (checked.status !== 0 || checked.stdout !== `${expected}\n`)
    throw new Error(`galley check did not pass the folder: ${checked.status} ${checked.stdout}`);
  const loaded = JSON.parse(timedProcess([jszipLoad, zipPath]).stdout) as {
    files: number;
    bytes: number;
  };
  if (loaded.files !== folder.size || loaded.bytes !== bytesIn)
    throw new Error(
      `JSZip read ${JSON.stringify(loaded)}, not ${folder.size} files of ${bytesIn} bytes`,
    );

  const galley: number[] = [];
  const jszip: number[] = [];
  const startup: number[] = [];
  const checkInProcess: number[] = [];
  const jszipInProcess: number[] = [];
  for (let round = 0; round < rounds + 1; round++) {
    const g = timedProcess([bin, 'check', zipPath]).ms;
    const j = timedProcess([jszipLoad, zipPath]).ms;
    const s = timedProcess([bin, '--help']).ms;
    let start = performance.now();
    checkZip(zip);
    const c = performance.now() - start;
    start = performance.now();
    await readAll(zip);
    const r = performance.now() - start;
    if (round === 0) continue; // the first round warms the file cache and this process's JIT
    galley.push(g);
    jszip.push(j);
    startup.push(s);
    checkInProcess.push(c);
    jszipInProcess.push(r);
  }
  const speedup = median(jszip) / median(galley);
  const result = {
    title: `galley check, the whole process: ${folder.size} files, ${mb(bytesIn)} MB (${mb(zip.length)} MB zipped)`,
    rows: [
      {
        name: 'JSZip process: loadAsync + every file read (median)',
        value: `${median(jszip).toFixed(0)} ms`,
        goal: 'reference',
        ok: true,
      },
      {
        name: '`galley check folder.zip` process: every check, human report (median)',
        value: `${median(galley).toFixed(0)} ms`,
        goal: 'faster than the JSZip process',
        ok: speedup > goal,
      },
      {
        name: 'JSZip process ÷ galley check process',
        value: `${speedup.toFixed(2)}×`,
        goal: `> ${goal}×`,
        ok: speedup > goal,
      },
      {
        name: '`galley --help` process (start-up alone: Node and every module the CLI loads)',
        value: `${median(startup).toFixed(0)} ms`,
        goal: 'reference',
        ok: true,
      },
      {
        name: 'in this process, warm: checkZip vs JSZip loadAsync + every file read (medians)',
        value: `${median(checkInProcess).toFixed(0)} ms vs ${median(jszipInProcess).toFixed(0)} ms`,
        goal: 'reference',
        ok: true,
      },
    ],
    notes: `${rounds} interleaved rounds after one warm-up; node ${process.version}; both sides are whole processes started by spawnSync (without NODE_EXTRA_CA_CERTS: its file is read at every start); galley is the bundle \`pnpm galley:install\` installs.`,
  };
  publish('cli.json', result);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
