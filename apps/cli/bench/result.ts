import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where `.bench/` gathers every benchmark's figures. */
export const repo = fileURLToPath(new URL('../../../', import.meta.url));

interface BenchResult {
  rows: { name: string; value: string; goal: string; ok: boolean }[];
}

/**
 * The environment of every process these benchmarks time: this one's, without
 * NODE_EXTRA_CA_CERTS. Node reads that certificate file as it starts, before any script (a
 * system bundle: about 100 ms here), which would time a machine's setting, on both sides.
 */
export const timedEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== 'NODE_EXTRA_CA_CERTS'),
);

/** Writes `.bench/<file>` for BENCHMARKS.md (scripts/write-benchmarks.mjs) and prints each row. */
export function publish(file: string, result: BenchResult): void {
  mkdirSync(join(repo, '.bench'), { recursive: true });
  writeFileSync(join(repo, '.bench', file), `${JSON.stringify(result, null, 2)}\n`);
  for (const row of result.rows)
    console.log(`${row.ok ? 'ok  ' : 'MISS'} ${row.name}: ${row.value} (${row.goal})`);
}
