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
const failures = [];
for (const file of readdirSync(reports)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(reports, file), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const suite of report.testResults ?? []) {
    const where = `${file.replace(/\.json$/, '')} ${suite.name.replace(/^.*?\/(test|bench)\//, '$1/')}`;
    const broken = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of broken)
      failures.push(`${where} > ${test.fullName}\n    ${headline(test.failureMessages)}`);
    if (broken.length === 0 && suite.status === 'failed')
      failures.push(`${where}\n    ${headline([suite.message])}`);
  }
}
if (run.status !== 0 && failed === 0) failed = 1; // a suite that crashed before reporting still fails
// CI shows only the end of a long log, so the failures are named again right above the sum.
if (failures.length > 0) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
// Skipped tests printed their reasons above; the closing line is the one CI reads.
console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);

/**
 * A failure's first line, and the line that names what it waited for when there is one (a
 * Playwright timeout says only "Timeout 30000ms exceeded." first; its call log names the locator).
 */
function headline(messages) {
  const text = (messages ?? []).find(Boolean) ?? 'no message';
  const lines = text.split('\n');
  const waited = lines.find((line) => /^\s*-\s+waiting for /.test(line));
  return [lines[0], waited?.trim()]
    .filter(Boolean)
    .map((line) => line.slice(0, 300))
    .join('\n    ');
}
