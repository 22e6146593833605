#!/usr/bin/env node
// Runs every package's tests through turbo, then sums the JSON reports into one closing line
// ("N passed, M failed") so CI and people read a single figure for the whole suite.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const reports = join(import.meta.dirname, '..', '.reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const run = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of readdirSync(reports)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(reports, file), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (run.status !== 0 && failed === 0) failed = 1; // a suite that crashed before reporting still fails
// Skipped tests printed their reasons above; the closing line is the one CI reads.
console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
