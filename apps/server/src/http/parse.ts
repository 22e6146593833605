import type { Request, Response } from 'express';
import { z } from 'zod';
import { hasJsonBody, readJson } from './json-body.js';
import { problemOf } from './problem.js';
import type { HttpProblem } from './problem.js';

/** Field path → reasons, as answered in a 422's `errors` (`""` is the value as a whole). */
export type FieldErrors = Record<string, string[]>;

/** One reason a request field is refused: its path (`""` for the value as a whole), and why. */
export type FieldError = readonly [field: string, reason: string];

/**
 * The `errors` of these reasons, in their order (a field named twice has both). Keys come from
 * the request (field and parameter names), so the map has no prototype: a field named
 * `constructor` or `__proto__` is an entry like any other.
 */
export function fieldErrorsOf(reasons: Iterable<FieldError>): FieldErrors {
  const errors = Object.create(null) as FieldErrors;
  for (const [field, reason] of reasons) (errors[field] ??= []).push(reason);
  return errors;
}

/**
 * Fields a 422 lists at most (in `errors` and `detail`); the others are only counted, so a body
 * of a million unknown fields gets an answer of a hundred, not one larger than itself.
 */
export const MAX_LISTED_FIELDS = 100;

/**
 * zod issues as `errors`: dotted paths (`files.0.path`); each unknown field gets its own entry.
 * `omitted`: fields left out past MAX_LISTED_FIELDS.
 */
export function fieldErrors(error: z.ZodError): { errors: FieldErrors; omitted: number } {
  const { reasons, omitted } = zodReasons(error);
  return { errors: fieldErrorsOf(reasons), omitted };
}

function zodReasons(error: z.ZodError): { reasons: FieldError[]; omitted: number } {
  const listed = new Set<string>();
  const kept: FieldError[] = [];
  let omitted = 0;
  const add = (path: PropertyKey[], reason: string) => {
    const field = path.map(String).join('.');
    if (!listed.has(field)) {
      if (listed.size === MAX_LISTED_FIELDS) {
        omitted += 1;
        return;
      }
      listed.add(field);
    }
    kept.push([field, reason]);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'unknown field');
    } else {
      add(issue.path, issue.message);
    }
  }
  return { reasons: kept, omitted };
}

/**
 * 422 `validation_failed` with the `errors` of these reasons; `detail` names the fields (`omitted`
 * more are counted).
 */
export function validationFailed(reasons: Iterable<FieldError>, omitted = 0): HttpProblem {
  const errors = fieldErrorsOf(reasons);
  const fields = Object.keys(errors).filter((k) => k !== '');
  const more = omitted > 0 ? ` and ${omitted} more` : '';
  return problemOf('validation_failed', {
    detail: fields.length
      ? `Invalid fields: ${fields.join(', ')}${more}.`
      : 'The request is not valid.',
    extras: { errors },
  });
}

/** The reason given for text that holds U+0000 (PostgreSQL cannot store it; no text needs it). */
export const NUL_REASON = 'must not contain U+0000';
/** The reason given for text with half a UTF-16 surrogate pair (it has no UTF-8 form). */
export const SURROGATE_REASON = 'must be valid Unicode (no lone surrogate)';
/** Fields with U+0000 or a lone surrogate reported at most (the answer stays small). */
const MAX_NUL_FIELDS = 100;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** U+0000 or any surrogate: a quick test that passes nearly all text on to no further test. */
const SUSPECT = /[\0\uD800-\uDFFF]/;

/** Why a store cannot keep `text` as it is, if it cannot: U+0000, or a lone surrogate. */
function unstorable(text: string): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (text.includes('\0')) return NUL_REASON;
  return LONE_SURROGATE.test(text) ? SURROGATE_REASON : undefined;
}

/**
 * Dotted paths (`*` is any one key or index) whose values are kept as sent and never walked for
 * U+0000: file contents given as JSON (`files.*.json`), which reach the byte store as serialized
 * JSON (U+0000 written as the escape `\u0000`), never a database column.
 */
export type VerbatimPaths = readonly string[];

export interface InputOptions {
  verbatim?: VerbatimPaths;
}

/**
 * Keys and strings of `value`, wherever they are, that hold U+0000 or a lone surrogate (JSON's
 * `\ud800` escape), as reasons of `errors` (dotted paths, like `fieldErrors`). PostgreSQL refuses U+0000
 * where SQLite keeps it, and a lone surrogate has no UTF-8 form (a saved page would silently
 * hold U+FFFD instead), so every request is refused alike before it reaches a store. Walked
 * breadth first, without recursion.
 */
export function unstorableFields(value: unknown, verbatim: VerbatimPaths = []): FieldError[] {
  const out: FieldError[] = [];
  const skip = verbatim.map((pattern) => pattern.split('.'));
  // Each entry names its parent's place in the queue: a path is spelled out only when needed.
  const queue: Array<{ item: unknown; parent: number; key: string }> = [
    { item: value, parent: -1, key: '' },
  ];
  const pathOf = (index: number, key?: string): string[] => {
    const path = key === undefined ? [] : [key];
    for (let at = index; at > 0; at = queue[at]!.parent) path.push(queue[at]!.key);
    return path.reverse();
  };
  let found = 0;
  for (let i = 0; i < queue.length && found < MAX_NUL_FIELDS; i++) {
    const { item } = queue[i]!;
    if (typeof item === 'string') {
      const reason = unstorable(item);
      if (reason !== undefined) {
        out.push([pathOf(i).join('.'), reason]);
        found++;
      }
    } else if (typeof item === 'object' && item !== null) {
      if (skip.length > 0) {
        const path = pathOf(i);
        if (skip.some((p) => matches(p, path))) continue;
      }
      for (const key of Object.keys(item)) {
        const reason = unstorable(key);
        if (reason !== undefined) {
          out.push([pathOf(i, key).join('.'), reason]);
          found++;
        }
        const child = (item as Record<string, unknown>)[key];
        if (typeof child === 'string' || (typeof child === 'object' && child !== null))
          queue.push({ item: child, parent: i, key });
      }
    }
  }
  return out;
}

function matches(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length === path.length && pattern.every((p, i) => p === '*' || p === path[i]);
}

/**
 * Validates `value`, or throws a 422 problem `validation_failed` with `errors`: the schema's, and
 * every key or string holding U+0000 or a lone surrogate (outside `options.verbatim`).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  options: InputOptions = {},
): z.output<S> {
  const nul = unstorableFields(value, options.verbatim);
  const result = schema.safeParse(value);
  if (result.success && nul.length === 0) return result.data;
  const { reasons, omitted } = result.success
    ? { reasons: [], omitted: 0 }
    : zodReasons(result.error);
  throw validationFailed([...reasons, ...nul], omitted);
}

/** JSON nested deeper than this is refused (422) before any schema or route code walks it. */
export const MAX_JSON_DEPTH = 512;

/** True when `value` nests arrays and objects deeper than `limit` (walked without recursion). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Reads the JSON body (now, if no parser ran yet) and validates it. No body, an empty body or a
 * body that is not JSON: 400; malformed JSON: 400; over the limit: 413; nested deeper than
 * MAX_JSON_DEPTH, holding U+0000 or a lone surrogate (see `unstorableFields`) or invalid: 422.
 * Use strict schemas (`z.strictObject`) so unknown fields are refused.
 */
export async function parseBody<S extends z.ZodType>(
  req: Request,
  res: Response,
  schema: S,
  limitBytes: number,
  options: InputOptions = {},
): Promise<z.output<S>> {
  await readJson(req, res, limitBytes);
  if (!hasJsonBody(req)) {
    throw problemOf('body_required', {
      detail: 'A JSON body is required (Content-Type: application/json).',
    });
  }
  return validBody(schema, req.body, options);
}

/**
 * A body that may be left out: none reads as `{}`. A body that is sent is read like
 * `parseBody` reads one: 400 when it is not JSON, 413 over the limit, 422 when invalid.
 */
export async function parseOptionalBody<S extends z.ZodType>(
  req: Request,
  res: Response,
  schema: S,
  limitBytes: number,
): Promise<z.output<S>> {
  const sent =
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0;
  if (!sent) return parseInput(schema, {});
  await readJson(req, res, limitBytes);
  if (req.body === undefined) {
    throw problemOf('body_required', {
      detail: 'The body must be JSON (Content-Type: application/json).',
    });
  }
  return validBody(schema, hasJsonBody(req) ? req.body : {});
}

const NoBody = z.strictObject({});

/** For endpoints that take no body: none, or `{}`; anything else is refused (400, 413, 422). */
export async function parseNoBody(req: Request, res: Response, limitBytes: number): Promise<void> {
  await parseOptionalBody(req, res, NoBody, limitBytes);
}

/** `value` validated by `schema`, after refusing nesting no schema should have to walk. */
function validBody<S extends z.ZodType>(
  schema: S,
  value: unknown,
  options: InputOptions = {},
): z.output<S> {
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw problemOf('validation_failed', {
      detail: 'The body is nested too deeply.',
      extras: { errors: fieldErrorsOf([['', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`]]) },
    });
  }
  return parseInput(schema, value, options);
}

/** Validates the query string (values are strings: use `z.coerce` for numbers). */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  return parseInput(schema, { ...req.query });
}
