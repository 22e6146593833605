// The refusals every operation can answer beside its own: who is calling (401, a screen session's
// write without its CSRF token), the rate limit, what its input can cause, the storage. Each is
// merged with the operation's own answer of that status, which says more.
import type { ResponseSpec, RouteSpec } from '@galley/core';

const UNAUTHENTICATED: ResponseSpec = {
  description:
    'Token or session missing, malformed (two Authorization headers included), unknown, expired or revoked.',
  codes: ['unauthorized'],
};
/** A write with a screen session's cookie also carries the session's `X-CSRF-Token`. */
const CSRF: ResponseSpec = {
  description: '`csrf_failed`: a write from a screen session without its `X-CSRF-Token`',
  codes: ['csrf_failed'],
};
/** The rate limit counts every request, with credentials or without (then per IP address). */
const TOO_MANY: ResponseSpec = {
  description: 'Too many requests: see Retry-After and the RateLimit headers.',
  codes: ['rate_limited'],
};

/** What any operation can answer when the service's storage fails (see docs/operations.md). */
export const STORAGE_UNAVAILABLE =
  '`storage_unavailable`: the database or the data folder cannot be reached or written just now; see Retry-After';
const STORAGE_RESPONSES: Record<number, ResponseSpec> = {
  503: {
    description: STORAGE_UNAVAILABLE,
    headers: { 'Retry-After': { description: 'Seconds to wait before trying again' } },
    codes: ['storage_unavailable'],
  },
  507: {
    description: '`storage_full`: no room left to store the request',
    codes: ['storage_full'],
  },
};

/** An upload is stored as sent, so it cannot come compressed. */
const UPLOAD_ENCODED = 'The upload has a `Content-Encoding`: uploads are stored as sent';
const JSON_CODING = 'JSON declared in a charset other than UTF-8, or in an unknown coding';

/**
 * The refusals an operation's input can cause, unless it says more: the ones of what it reads
 * (its `X-Editor-Client`, query, JSON body or upload), and only those.
 */
function inputResponses(spec: RouteSpec): Record<number, ResponseSpec> {
  const upload = spec.requestBody?.contentType;
  const json = spec.body !== undefined || upload === 'application/json';
  const raw = upload !== undefined && upload !== 'application/json';
  const multipart = upload?.startsWith('multipart/') ?? false;
  const badRequest: Array<[string, ...string[]]> = [];
  if (spec.editorClient) {
    badRequest.push(['missing or invalid `X-Editor-Client`', 'invalid_editor_client']);
  }
  if (json) badRequest.push(['a body that is not JSON', 'malformed_json', 'body_required']);
  if (multipart) badRequest.push([`a body that is not \`${upload}\``, 'invalid_multipart']);
  const unsupported: string[] = [];
  if (json) unsupported.push(JSON_CODING);
  if (raw) unsupported.push(UPLOAD_ENCODED);
  const responses: Record<number, ResponseSpec> = {};
  if (badRequest.length) {
    responses[400] = {
      description: sentence(badRequest.map(([text]) => text)),
      codes: badRequest.flatMap(([, ...codes]) => codes),
    };
  }
  if (json || raw) {
    responses[413] = {
      description: 'The body is larger than the limit',
      codes: ['body_too_large'],
    };
  }
  if (unsupported.length) {
    responses[415] = { description: sentence(unsupported), codes: ['unsupported_media_type'] };
  }
  if (json) {
    responses[422] = {
      description: 'Invalid request body (`errors`)',
      codes: ['validation_failed'],
    };
  } else if (spec.query) {
    responses[422] = {
      description:
        'Invalid query (`errors`): a bad `per_page` or `page` cursor, or an unknown parameter',
      codes: ['validation_failed'],
    };
  }
  return responses;
}

/** `a, or b`, capitalised. */
function sentence(parts: string[]): string {
  const text = parts.join(', or ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Every answer of an operation: its own, and those any operation like it gives. Where both say
 * something of one status, the operation's own description stands (a 503 of its own also names
 * the storage's) and the codes are those of both.
 */
export function responsesOf(spec: RouteSpec): Record<number, ResponseSpec> {
  const authenticated = spec.authenticated ?? true;
  const shared: Record<number, ResponseSpec> = {
    429: TOO_MANY,
    ...inputResponses(spec),
    ...STORAGE_RESPONSES,
  };
  if (authenticated) shared[401] = UNAUTHENTICATED;
  if (authenticated && spec.method !== 'get') shared[403] = CSRF;
  const merged: Record<number, ResponseSpec> = { ...shared };
  for (const [key, own] of Object.entries(spec.responses)) {
    const status = Number(key);
    const other = shared[status];
    merged[status] = other
      ? {
          ...other,
          ...own,
          ...(status === 503
            ? { description: `${own.description}; or ${STORAGE_UNAVAILABLE}` }
            : {}),
          codes: [...new Set([...(own.codes ?? []), ...(other.codes ?? [])])],
        }
      : own;
  }
  return merged;
}
