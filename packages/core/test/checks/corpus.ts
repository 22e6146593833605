import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';

/** The shared real-world corpus, read in place (never copied into the project). */
export const corpus = new URL('../../../../../shared/corpus/', import.meta.url);

/** Why a corpus folder cannot be used here, or undefined when it can. */
export function corpusMissing(folder: string): string | undefined {
  const url = new URL(folder, corpus);
  return existsSync(url) ? undefined : `corpus folder ${url.pathname} is absent`;
}

/** Every file below a folder, as relative path → bytes, in sorted order. */
export function readTree(folder: URL, prefix = ''): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of readdirSync(folder).sort()) {
    const url = new URL(encodeURIComponent(name), folder);
    if (statSync(url).isDirectory())
      for (const [path, bytes] of readTree(
        new URL(`${encodeURIComponent(name)}/`, folder),
        `${prefix}${name}/`,
      ))
        files.set(path, bytes);
    else files.set(`${prefix}${name}`, new Uint8Array(readFileSync(url)));
  }
  return files;
}
