// What the server's benchmarks share: the child's part of those that run the service in a child
// process, the median of their rounds, and writing the figures where
// scripts/write-benchmarks.mjs gathers them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchRow {
  name: string;
  value: string;
  goal: string;
  ok: boolean;
}

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1]!;

const repo = join(new URL('.', import.meta.url).pathname, '../../..');

/** The child: the whole service on a SQLite store in `dataDir`; sends its URL and token. */
export async function serveBenchChild(dataDir: string): Promise<void> {
  const { startBenchServer } = await import('./bench-server.js');
  const server = await startBenchServer(dataDir);
  process.send?.({ url: server.url, token: server.token });
  process.on('message', () => {
    void server.stop().then(() => process.exit(0));
  });
}

/** Writes `<repo>/.bench/<name>.json` (with `notes`, how it was measured) and prints each row. */
export function writeBench(
  name: string,
  title: string,
  rows: readonly BenchRow[],
  notes?: string,
): void {
  mkdirSync(join(repo, '.bench'), { recursive: true });
  const result = { title, rows, ...(notes === undefined ? {} : { notes }) };
  writeFileSync(join(repo, `.bench/${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  for (const row of rows)
    console.log(`${row.ok ? 'ok ' : 'NO '} ${row.name}: ${row.value} (goal ${row.goal})`);
}
