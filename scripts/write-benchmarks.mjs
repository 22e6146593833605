#!/usr/bin/env node
// Collects the results every benchmark wrote to .bench/*.json into BENCHMARKS.md, so the figures
// people read come from one `pnpm bench` run on one machine.
import { cpus, totalmem } from 'node:os';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dir = join(root, '.bench');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const lines = [
  '# Benchmarks',
  '',
  'Written by `pnpm bench` (do not edit by hand). Every figure compares two things measured side by',
  'side in the same run on the same machine, so the ratios hold where the absolute numbers do not.',
  '',
  `Last run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB.`,
  '',
];
let failures = 0;
for (const file of files) {
  const result = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  lines.push(`## ${result.title}`, '', '| measure | result | goal | met |', '|---|---|---|---|');
  for (const row of result.rows) {
    if (!row.ok) failures += 1;
    lines.push(`| ${row.name} | ${row.value} | ${row.goal} | ${row.ok ? 'yes' : '**no**'} |`);
  }
  if (result.notes) lines.push('', result.notes);
  lines.push('');
}
writeFileSync(join(root, 'BENCHMARKS.md'), lines.join('\n'));
console.log(`BENCHMARKS.md: ${files.length} benchmarks, ${failures} goals not met`);
