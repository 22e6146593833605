// What a typical Node tool starts from: load the archive with JSZip and read every file's bytes.
// As a script (node jszip-load.mjs <zip>) it prints {"files", "bytes"}, so the benchmark can
// check that the work was done; the benchmark also imports readAll to time it in its process.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import JSZip from 'jszip';

export async function readAll(bytes) {
  const zip = await JSZip.loadAsync(bytes);
  let files = 0;
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const data = await entry.async('uint8array');
    files += 1;
    total += data.length;
  }
  return { files, bytes: total };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.stdout.write(JSON.stringify(await readAll(readFileSync(process.argv[2]))));
