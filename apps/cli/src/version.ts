import { readFileSync } from 'node:fs';

/**
 * The version in the CLI's package.json, one folder up from this module wherever it runs: the
 * sources (src/), the build (dist/) and the packed bundle (dist/galley.js beside the packed
 * package.json) all sit there.
 */
export function galleyVersion(): string {
  const file = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
