import { z } from 'zod';

/** ISO 8601 with an offset; Galley writes UTC as `+00:00`, never `Z` (decisions §1). */
export const Timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/);
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
export const Uuid = z.uuid();

/** RFC 9457 problem details with Galley's stable `code` (decisions §1). */
export const Problem = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type Problem = z.infer<typeof Problem>;

/** `per_page` (1..200, default 50) and the opaque `page` cursor of every list. */
export const PageQuery = z.strictObject({
  per_page: z.coerce.number().int().min(1).max(200).default(50),
  page: z.string().min(1).optional(),
});

/** `X-Editor-Client` (decisions §8): ASCII letters, digits and `. _ : -`, 1 to 64 characters. */
export const EditorClient = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/);
