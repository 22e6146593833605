// Benchmark: start-up of the installed `galley` (the packed bundle, apps/cli/scripts/pack.ts)
// against `node -e 0`, side by side in one run: `--help`, `--version`, and `check` of a 3-page
// folder. Writes <repo>/.bench/cli-startup.json. Run: pnpm --filter @galley/cli bench
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { stageCli } from '../scripts/pack.js';
import { publish, timedEnv } from './result.js';

const rounds = 15;
const dir = mkdtempSync(join(tmpdir(), 'galley-startup-bench-'));

/** Three pages that link each other and share a style sheet: a small site that passes. */
function threePages(): string {
  const folder = join(dir, 'site');
  mkdirSync(folder);
  const files = ['index.html', 'about.html', 'contact.html'];
  const project = {
    format: 1,
    title: 'Three pages',
    media: { id: 'web', version: 1 },
    pages: files.map((file, i) => ({ file, title: `Page ${i}`, public_url: `/${file}` })),
  };
  writeFileSync(join(folder, 'project.json'), JSON.stringify(project));
  writeFileSync(join(folder, 'style.css'), 'body { margin: 0 auto; max-width: 40rem; }\n');
  files.forEach((file, i) => {
    const nav = files.map((f) => `<a href="${f}">${f}</a>`).join(' ');
    writeFileSync(
      join(folder, file),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i}</title><link rel="stylesheet" href="style.css"></head><body><nav>${nav}</nav><h1 id="top">Page ${i}</h1></body></html>\n`,
    );
  });
  return folder;
}

function timed(args: string[]): number {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: timedEnv });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${args.join(' ')}: exit ${run.status} ${run.stderr}`);
  return ms;
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  await stageCli(join(dir, 'package'));
  const galley = join(dir, 'package/dist/galley.js');
  const site = threePages();
  const cases = {
    node: ['-e', '0'],
    help: [galley, '--help'],
    version: [galley, '--version'],
    check: [galley, 'check', site],
  };
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, [] as number[]]));
  for (let round = 0; round < rounds + 1; round++)
    for (const [name, args] of Object.entries(cases)) {
      const ms = timed(args);
      if (round > 0) times[name]!.push(ms); // the first round warms the file cache
    }
  const node = median(times.node!);
  const row = (name: string, what: string, goal: number) => {
    const ratio = median(times[name]!) / node;
    return {
      name: `${what}: ${median(times[name]!).toFixed(0)} ms ÷ node -e 0`,
      value: `${ratio.toFixed(2)}×`,
      goal: `≤ ${goal}×`,
      ok: ratio <= goal,
    };
  };
  const result = {
    title: 'galley start-up: the packed command against node -e 0',
    rows: [
      { name: '`node -e 0` (median)', value: `${node.toFixed(0)} ms`, goal: 'reference', ok: true },
      row('help', '`galley --help`', 1.5),
      row('version', '`galley --version`', 1.5),
      row('check', '`galley check` of a 3-page folder', 2),
    ],
    notes: `${rounds} interleaved rounds after one warm-up; node ${process.version}; whole processes started by spawnSync (without NODE_EXTRA_CA_CERTS: its file is read at every start); the bundle is the one \`pnpm galley:install\` installs.`,
  };
  publish('cli-startup.json', result);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
