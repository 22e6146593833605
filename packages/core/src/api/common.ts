import { z } from 'zod';

/** ISO 8601 with an offset; Galley writes UTC as `+00:00`, never `Z` (decisions §1). */
export const Timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/);
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
/** A UUID; they compare without regard to case (RFC 9562), so it is kept lower-case. */
export const Uuid = z.uuid().toLowerCase();

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

/**
 * The largest whole number the stores keep: PostgreSQL's `integer`. A larger one cannot be
 * compared with a column there (SQLite would simply find nothing), so inputs stop at it.
 */
export const MAX_STORED_INT = 2_147_483_647;

/** The bounds of a number that reaches the stores, defined once for both forms below. */
const stored = (number: z.ZodNumber) => number.int().min(1).max(MAX_STORED_INT);
/**
 * A positive whole number that reaches the stores (revision, version, account number, cursor
 * position): 1..MAX_STORED_INT. The one schema for such numbers in JSON; `StoredNumberText`
 * reads the same from a query or path.
 */
export const StoredNumber = stored(z.number());
/** `StoredNumber` given as text (query values and path parameters are strings). */
export const StoredNumberText = stored(z.coerce.number());

/** `per_page` (1..200, default 50) and the opaque `page` cursor of every list. */
export const PageQuery = z.strictObject({
  per_page: z.coerce.number().int().min(1).max(200).default(50),
  page: z.string().min(1).optional(),
});

/** `X-Editor-Client` (decisions §8): ASCII letters, digits and `. _ : -`, 1 to 64 characters. */
export const EditorClient = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/);
