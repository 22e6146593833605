import type { Request, Response } from 'express';
import type { z } from 'zod';
import { hasJsonBody, readJson } from './json-body.js';
import { problem } from './problem.js';

/** Field path → reasons, as answered in a 422's `errors` (`""` is the value as a whole). */
export type FieldErrors = Record<string, string[]>;

/** zod issues as `errors`: dotted paths (`files.0.path`); each unknown field gets its own entry. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  const add = (path: PropertyKey[], reason: string) => {
    const key = path.map(String).join('.');
    (out[key] ??= []).push(reason);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'unknown field');
    } else {
      add(issue.path, issue.message);
    }
  }
  return out;
}

/** Validates `value`, or throws a 422 problem `validation_failed` with `errors`. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const fields = Object.keys(errors).filter((k) => k !== '');
  throw problem(
    422,
    'validation_failed',
    fields.length ? `Invalid fields: ${fields.join(', ')}.` : 'The request is not valid.',
    { errors },
  );
}

/**
 * Reads the JSON body (now, if no parser ran yet) and validates it. No body, an empty body or a
 * body that is not JSON: 400; malformed JSON: 400; over the limit: 413; invalid: 422.
 * Use strict schemas (`z.strictObject`) so unknown fields are refused.
 */
export async function parseBody<S extends z.ZodType>(
  req: Request,
  res: Response,
  schema: S,
  limitBytes: number,
): Promise<z.output<S>> {
  await readJson(req, res, limitBytes);
  if (!hasJsonBody(req)) {
    throw problem(
      400,
      'body_required',
      'A JSON body is required (Content-Type: application/json).',
    );
  }
  return parseInput(schema, req.body);
}

/** Validates the query string (values are strings: use `z.coerce` for numbers). */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  return parseInput(schema, { ...req.query });
}
