import { definitionByUri } from './registry.js';
import * as generated from './generated/validators.js';

export interface JsonSchemaError {
  /** JSON Pointer into the value (`""` for the value itself). */
  readonly path: string;
  readonly message: string;
}
export type JsonValidation = { ok: true } | { ok: false; errors: JsonSchemaError[] };

/** The shape of an ajv standalone validator (generated code is untyped). */
interface CompiledValidator {
  (value: unknown): boolean;
  errors?: readonly { instancePath: string; message?: string; params?: object }[] | null;
}
const compiled = generated as unknown as Readonly<Record<string, CompiledValidator | undefined>>;

/** Why a value failed: ajv's text, with the offending member named where ajv keeps it apart. */
function describe(message: string | undefined, params: object | undefined): string {
  const extra = (params ?? {}) as { additionalProperty?: unknown; allowedValues?: unknown };
  if (typeof extra.additionalProperty === 'string')
    return `${message ?? 'is invalid'}: ${extra.additionalProperty}`;
  if (Array.isArray(extra.allowedValues))
    return `${message ?? 'is invalid'}: ${extra.allowedValues.map(String).join(', ')}`;
  return message ?? 'is invalid';
}

/**
 * Validates a JSON value against the schema at `uri` with the ahead-of-time compiled validator.
 * Undefined when the URI names no known schema (the caller decides whether that is an error).
 */
export function validateJson(uri: string, value: unknown): JsonValidation | undefined {
  const definition = definitionByUri(uri);
  const validator = definition && compiled[definition.validatorName];
  if (validator === undefined) return undefined;
  if (validator(value)) return { ok: true };
  const errors = (validator.errors ?? []).map((e) => ({
    path: e.instancePath,
    message: describe(e.message, e.params),
  }));
  return { ok: false, errors };
}
