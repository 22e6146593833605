import { z } from 'zod';

/** ISO 8601 with an offset; Galley writes UTC as `+00:00`, never `Z` (decisions §1). */
export const Timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/);
export const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
/** A UUID; they compare without regard to case (RFC 9562), so it is kept lower-case. */
export const Uuid = z.uuid().toLowerCase();

/** Reasons by request field (`body.title`, `page`, …), as 422 answers carry them. */
export const FieldErrors = z.record(z.string(), z.array(z.string()));

/** RFC 9457 problem details with Galley's stable `code` (decisions §1). */
export const Problem = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: FieldErrors.optional(),
});
export type Problem = z.infer<typeof Problem>;

/**
 * The largest whole number the stores keep: PostgreSQL's `integer`. A larger one cannot be
 * compared with a column there (SQLite would simply find nothing), so inputs stop at it.
 */
export const MAX_STORED_INT = 2_147_483_647;

/**
 * A positive whole number that reaches the stores (revision, version, account number, cursor
 * position): 1..MAX_STORED_INT. The one schema for such numbers in JSON; `StoredNumberText`
 * reads the same from a query or path.
 */
export const StoredNumber = z.number().int().min(1).max(MAX_STORED_INT);
/**
 * A whole number from `min` to `max` given as text (query values and path parameters are
 * strings): decimal digits only, as `z.coerce.number()` alone would also take `0x10`, `1e2`,
 * ` 5`, `+5` and `2.0`. Described as the integer it stands for.
 */
const numberText = (min: number, max: number) =>
  z
    .string()
    .refine((text) => /^[0-9]{1,16}$/.test(text), 'a whole number in decimal digits')
    .pipe(z.coerce.number<string>().int().min(min).max(max))
    .meta({ type: 'integer', minimum: min, maximum: max });

/** `StoredNumber` given as text. */
export const StoredNumberText = numberText(1, MAX_STORED_INT);
/** `per_page` of every list: 1..200, 50 when not given. */
export const PerPage = numberText(1, 200).default(50);

/** `per_page` and the opaque `page` cursor of every list. */
export const PageQuery = z.strictObject({
  per_page: PerPage,
  page: z.string().min(1).optional(),
});

/** `X-Editor-Client` (decisions §8): ASCII letters, digits and `. _ : -`, 1 to 64 characters. */
export const EditorClient = z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/);

/** The cookie of a person's screen session (an alternative to a bearer token). */
export const SESSION_COOKIE = 'galley_session';

/**
 * Raw bytes: a file part of a multipart form, or a whole upload. No JSON `type`, as OpenAPI 3.1
 * describes binary data, so generators type it as something a `Blob` or bytes can be given as
 * (openapi-typescript: `unknown`); `format: binary` keeps the hint older tools read.
 */
export const binary = (contentMediaType: string) =>
  z.custom<Blob>().meta({ format: 'binary', contentMediaType });
