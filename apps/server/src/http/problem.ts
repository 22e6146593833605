import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';

/**
 * RFC 9457 problem details. `code` is the stable machine string clients branch on; extras are the
 * members the documents name (`errors`, `violations`, `checks`, `lock`, `current_revision`, …).
 */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extra: string]: unknown;
}

/** Platform codes and their titles; routers use their own codes with `problem()` as well. */
export const PLATFORM_PROBLEMS = {
  bad_request: 'Bad request',
  malformed_json: 'Malformed JSON',
  body_required: 'Request body required',
  invalid_multipart: 'Malformed multipart body',
  invalid_editor_client: 'Invalid X-Editor-Client',
  unauthorized: 'Authentication required',
  invalid_credentials: 'Wrong e-mail or password',
  csrf_failed: 'CSRF check failed',
  session_required: 'A screen session is required',
  not_found: 'Not found',
  body_too_large: 'Request body too large',
  unsupported_media_type: 'Unsupported media type',
  validation_failed: 'Invalid request',
  rate_limited: 'Too many requests',
  internal_error: 'Internal server error',
} as const;

export type PlatformProblemCode = keyof typeof PLATFORM_PROBLEMS;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An HTTP error answer as a value: throw it from a handler, or send it with `sendProblem`. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly extras: Record<string, unknown>;
  /** Headers to send with the problem (e.g. `WWW-Authenticate`, `Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    title?: string;
    extras?: Record<string, unknown>;
    headers?: Record<string, string>;
  }) {
    // A problem is an answer, not a fault: capturing a stack for every 404 cost measurable time.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(init.detail);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'HttpProblem';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.title =
      init.title ??
      (PLATFORM_PROBLEMS as Record<string, string>)[init.code] ??
      STATUS_CODES[init.status] ??
      'Error';
    this.extras = init.extras ?? {};
    this.headers = init.headers ?? {};
  }

  toBody(): ProblemBody {
    return {
      ...this.extras,
      type: problemType(this.code),
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
    };
  }
}

/** Shorthand: `throw problem(409, 'revision_conflict', 'The page changed.', {current_revision: 7})`. */
export function problem(
  status: number,
  code: string,
  detail: string,
  extras?: Record<string, unknown>,
): HttpProblem {
  return new HttpProblem({ status, code, detail, ...(extras ? { extras } : {}) });
}

export function problemType(code: string): string {
  return `urn:galley:problem:${code}`;
}

export function sendProblem(res: Response, p: HttpProblem): void {
  for (const [name, value] of Object.entries(p.headers)) res.setHeader(name, value);
  res.status(p.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(p.toBody()));
}
