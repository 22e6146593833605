// The report a conversion writes, defined beside the converter so that site/ needs nothing from
// the HTTP contract; api/v1.ts re-exports it as part of the created project's answer. Modules
// of site/ import it as types only: converting a site must not load zod (see folder.ts).
import { z } from 'zod';

export const SiteWarning = z.object({
  code: z.string(),
  path: z.string(),
  target: z.string().nullable(),
  actual: z.string().nullable(),
  message: z.string(),
});
export type SiteWarning = z.infer<typeof SiteWarning>;

export const SiteReport = z.object({
  pages: z.array(z.object({ file: z.string(), public_url: z.string() })),
  ignored: z.array(z.string()),
  warnings: z.array(SiteWarning),
});
export type SiteReport = z.infer<typeof SiteReport>;
