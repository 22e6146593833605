import type { Request, RequestHandler } from 'express';
import { problemOf } from './problem.js';

/** ASCII letters and digits and `.` `_` `:` `-`, 1 to 64 characters (decisions §8). */
export const EDITOR_CLIENT_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

export function isValidEditorClient(value: unknown): value is string {
  return typeof value === 'string' && EDITOR_CLIENT_PATTERN.test(value);
}

/**
 * The request's `X-Editor-Client`, or a 400 `invalid_editor_client` when missing or invalid.
 * Call it where the refusal order puts 400 (after 401/404/403/423 checks).
 */
export function editorClientOf(req: Request): string {
  const value = req.get('x-editor-client');
  if (isValidEditorClient(value)) return value;
  throw problemOf('invalid_editor_client', {
    detail:
      value === undefined
        ? 'Writes need an X-Editor-Client header.'
        : 'X-Editor-Client must be 1 to 64 ASCII letters, digits or . _ : -',
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Middleware form: refuses writes without a valid `X-Editor-Client` before any other check. */
export const requireEditorClient: RequestHandler = (req, _res, next) => {
  if (!SAFE_METHODS.has(req.method)) editorClientOf(req);
  next();
};

export function isWriteMethod(method: string): boolean {
  return !SAFE_METHODS.has(method);
}
