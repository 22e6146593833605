import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inspect } from '@galley/core';
import type { Clock, Store } from '@galley/store';
import { isUniqueViolation, isoTime } from '@galley/store';
import { SERVICE_OWNER } from './access.js';
import { mediaTypeOfPath } from './media-types.js';

/**
 * The service's fonts (decisions §6): real open-licence fonts from the Fontsource packages,
 * latin subsets in woff2. Both families are under the SIL Open Font License 1.1, which allows
 * use and redistribution; the licence is named in each title. Fixed ids make seeding idempotent
 * across restarts and across processes starting together.
 */
export const serviceFonts = [
  {
    id: 'ast_svc_inter_400',
    file: '@fontsource/inter/files/inter-latin-400-normal.woff2',
    title: 'Inter Regular (SIL OFL 1.1)',
  },
  {
    id: 'ast_svc_inter_700',
    file: '@fontsource/inter/files/inter-latin-700-normal.woff2',
    title: 'Inter Bold (SIL OFL 1.1)',
  },
  {
    id: 'ast_svc_merriweather_400',
    file: '@fontsource/merriweather/files/merriweather-latin-400-normal.woff2',
    title: 'Merriweather Regular (SIL OFL 1.1)',
  },
  {
    id: 'ast_svc_merriweather_700',
    file: '@fontsource/merriweather/files/merriweather-latin-700-normal.woff2',
    title: 'Merriweather Bold (SIL OFL 1.1)',
  },
] as const;

const require = createRequire(import.meta.url);

/** Registers each service font that is not there yet; answers how many were added. */
export async function seedServiceFonts(store: Store, clock: Clock): Promise<number> {
  let added = 0;
  for (const font of serviceFonts) {
    if (await store.assets.find(font.id)) continue;
    const bytes = await readFile(require.resolve(font.file));
    const put = await store.bytes.put([bytes]);
    if (!put.ok) continue;
    const path = font.file.slice(font.file.lastIndexOf('/') + 1);
    const files = new Map([[path, new Uint8Array(bytes)]]);
    try {
      await store.assets.create({
        id: font.id,
        owner: SERVICE_OWNER,
        kind: 'font',
        title: font.title,
        files: [
          {
            path,
            sha256: put.sha256,
            size: put.size,
            mediaType: mediaTypeOfPath(path),
            schemaUri: null,
          },
        ],
        inspection: inspect({ kind: 'font', files, now: isoTime(clock.now()) }),
      });
      added++;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // another process seeded it first
    }
  }
  return added;
}
