// A medium's shape as zod schemas, for the API's validation and its types. Apart from the
// catalog so that checking a folder never loads zod (the CLI starts faster).
import { z } from 'zod';

export const Medium = z.object({
  id: z.string(),
  version: z.number().int(),
  label: z.string(),
  type: z.enum(['site', 'display', 'print']),
  canvas: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
  formats: z.array(z.string()),
});
export type Medium = z.infer<typeof Medium>;

export const MediumRef = z.object({ id: z.string(), version: z.number().int() });
export type MediumRef = z.infer<typeof MediumRef>;
