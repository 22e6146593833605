import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where `.bench/` gathers every benchmark's figures. */
export const repo = fileURLToPath(new URL('../../../', import.meta.url));

interface BenchResult {
  rows: { name: string; value: string; goal: string; ok: boolean }[];
}

/** Writes `.bench/<file>` for BENCHMARKS.md (scripts/write-benchmarks.mjs) and prints each row. */
export function publish(file: string, result: BenchResult): void {
  mkdirSync(join(repo, '.bench'), { recursive: true });
  writeFileSync(join(repo, '.bench', file), `${JSON.stringify(result, null, 2)}\n`);
  for (const row of result.rows)
    console.log(`${row.ok ? 'ok  ' : 'MISS'} ${row.name}: ${row.value} (${row.goal})`);
}
