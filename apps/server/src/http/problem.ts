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

/** What every answer with a code has: its status and title (one entry of a catalog). */
export interface ProblemKind {
  readonly status: number;
  readonly title: string;
}

/** Stable codes with their status and title: the refusals one interface (or the platform) gives. */
export type ProblemCatalog = Readonly<Record<string, ProblemKind>>;

export interface ProblemOptions {
  detail: string;
  extras?: Record<string, unknown>;
  /** Headers to send with the problem (e.g. `WWW-Authenticate`, `Retry-After`). */
  headers?: Record<string, string>;
  /**
   * Only where another library chose the status (an Express or body-parser error, answered with
   * the status it carried) or where a code was answered with another status before its catalog.
   */
  status?: number;
}

/**
 * The problems of one catalog: `problemOf(code, {detail, extras, headers})`, where `code` is one
 * of the catalog's, so a code's status and title are written once, as data.
 */
export function defineProblems<const C extends ProblemCatalog>(catalog: C) {
  return (code: keyof C & string, options: ProblemOptions): HttpProblem => {
    const kind: ProblemKind = catalog[code]!;
    return new HttpProblem({
      status: options.status ?? kind.status,
      code,
      title: kind.title,
      detail: options.detail,
      extras: options.extras ?? {},
      headers: options.headers ?? {},
    });
  };
}

/**
 * The platform's codes: what the shared layers answer (bodies, authentication, limits, storage)
 * and what both interfaces share (events, webhooks); each interface has its own catalog beside.
 * Titles that are the status's reason phrase were given as such before there was a catalog.
 */
export const PLATFORM_PROBLEMS = {
  bad_request: { status: 400, title: 'Bad request' },
  malformed_json: { status: 400, title: 'Malformed JSON' },
  body_required: { status: 400, title: 'Request body required' },
  invalid_multipart: { status: 400, title: 'Malformed multipart body' },
  invalid_editor_client: { status: 400, title: 'Invalid X-Editor-Client' },
  unauthorized: { status: 401, title: 'Authentication required' },
  invalid_credentials: { status: 401, title: 'Wrong e-mail or password' },
  csrf_failed: { status: 403, title: 'CSRF check failed' },
  session_required: { status: 403, title: 'A screen session is required' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  request_timeout: { status: 408, title: 'Request Timeout' },
  body_too_large: { status: 413, title: 'Request body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  expectation_failed: { status: 417, title: 'Expectation Failed' },
  validation_failed: { status: 422, title: 'Invalid request' },
  webhook_url_refused: { status: 422, title: 'Unprocessable Entity' },
  rate_limited: { status: 429, title: 'Too many requests' },
  too_many_streams: { status: 429, title: 'Too many event streams' },
  too_many_mcp_sessions: { status: 429, title: 'Too many MCP sessions' },
  headers_too_large: { status: 431, title: 'Request Header Fields Too Large' },
  internal_error: { status: 500, title: 'Internal server error' },
  stopping: { status: 503, title: 'Service Unavailable' },
  bundle_missing: { status: 503, title: 'Service Unavailable' },
  work_failed: { status: 503, title: 'Work failed' },
  storage_unavailable: { status: 503, title: 'Storage unavailable' },
  storage_full: { status: 507, title: 'Storage full' },
} as const satisfies ProblemCatalog;

export type PlatformProblemCode = keyof typeof PLATFORM_PROBLEMS;

export const problemOf = defineProblems(PLATFORM_PROBLEMS);

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
    title: string;
    detail: string;
    extras: Record<string, unknown>;
    headers: Record<string, string>;
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
    this.title = init.title;
    this.extras = init.extras;
    this.headers = init.headers;
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

export function problemType(code: string): string {
  return `urn:galley:problem:${code}`;
}

export function sendProblem(res: Response, p: HttpProblem): void {
  for (const [name, value] of Object.entries(p.headers)) res.setHeader(name, value);
  res.status(p.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(p.toBody()));
}
