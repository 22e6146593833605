import type { IncomingMessage } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { storageFailureOf } from '@galley/store';
import { causeOf } from '../failure-cause.js';
import { fieldErrorsOf, NUL_REASON } from './parse.js';
import { discardRest } from './discard-rest.js';
import { HttpProblem, problemOf, sendProblem } from './problem.js';

/** The last route: anything unmatched is a 404 problem. */
/**
 * What no route answered: 405 with `Allow` when the path is a route's with another method
 * (`allowedAt` names the methods; the path's template is public, so nothing is revealed about
 * what exists), else 404.
 */
export function notFound(
  allowedAt: (path: string) => readonly string[] = () => [],
): RequestHandler {
  return (req) => {
    const allowed = allowedAt(req.path);
    if (allowed.length > 0) {
      throw problemOf('method_not_allowed', {
        detail: `${req.method} is not allowed at ${req.path}; it takes ${allowed.join(', ')}.`,
        headers: { Allow: allowed.join(', ') },
      });
    }
    throw problemOf('not_found', { detail: `Nothing at ${req.method} ${req.path}.` });
  };
}

/**
 * Maps every error to a problem. Known client errors (body parser, URL decoding) keep their 4xx;
 * text PostgreSQL cannot hold is a 422 (logged: the request should have been refused before);
 * anything else is logged and answered 500 without detail, never with a stack trace.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  const logStorageFailure = oncePer(STORAGE_LOG_EVERY_MS, (fields: object, message: string) =>
    logger.error(fields, message),
  );
  return (error: unknown, req, res, _next) => {
    const known = error instanceof HttpProblem ? error : fromClientError(error);
    if (res.headersSent) {
      logger.error({ err: error, reqId: req.id }, 'error after the answer started');
      res.destroy();
      return;
    }
    if (isClientGone(error, req)) {
      // Nothing to answer and nothing wrong here: the request log records "request aborted".
      res.destroy();
      return;
    }
    const unstorable = known ? null : unstorableText(error);
    if (unstorable) {
      logger.warn({ err: error, reqId: req.id }, 'the database refused text of the request');
      sendProblem(res, unstorable);
      return;
    }
    if (known) {
      if (known.status === 413) discardRest(req, res);
      sendProblem(res, known);
      return;
    }
    const storage = storageFailureOf(error);
    if (storage) {
      // The cause, not a stack, and once in a while: an outage fails every request alike (each
      // has its own request line), and the stack says nothing.
      logStorageFailure({ reqId: req.id, ...causeOf(error) }, `storage ${storage}`);
      sendProblem(res, storage === 'full' ? storageFull() : storageUnavailable());
      return;
    }
    logger.error({ err: error, reqId: req.id }, 'unexpected error');
    sendProblem(
      res,
      problemOf('internal_error', { detail: 'The server could not answer this request.' }),
    );
  };
}

/** A storage failure is logged at most once in this many milliseconds (with how many were not). */
const STORAGE_LOG_EVERY_MS = 10_000;

/** `log`, at most once per `ms`; the next line says how many calls went unlogged meanwhile. */
function oncePer(ms: number, log: (fields: object, message: string) => void) {
  let last = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (fields: object, message: string): void => {
    const now = performance.now();
    if (now - last < ms) {
      unlogged += 1;
      return;
    }
    log(unlogged > 0 ? { ...fields, unlogged } : fields, message);
    last = now;
    unlogged = 0;
  };
}

/** Seconds a client waits before it tries again after a storage failure. */
const STORAGE_RETRY_AFTER_SECONDS = 5;

/** 503 with `Retry-After`: the database or the data folder cannot be reached or written. */
export const storageUnavailable = () =>
  problemOf('storage_unavailable', {
    detail: 'The service cannot reach or write its storage just now. Try again shortly.',
    headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
  });

const storageFull = () =>
  problemOf('storage_full', { detail: 'The service has no room left to store this.' });

/** The error a request raises when its client disconnects before the body is in. */
function isClientGone(error: unknown, req: IncomingMessage): boolean {
  return (error as { code?: unknown } | null)?.code === 'ECONNRESET' && !req.complete;
}

/**
 * SQLSTATE 22021 (character_not_in_repertoire): PostgreSQL refused text it cannot hold, such as
 * U+0000 (`invalid byte sequence for encoding "UTF8": 0x00`). Requests are refused before they
 * get there (http/parse.ts); this is the last line of defence, so such text is never a 500. The
 * error may come wrapped (`cause`), as stores and services rethrow.
 */
function unstorableText(error: unknown): HttpProblem | null {
  let e: unknown = error;
  for (let depth = 0; depth < 8 && typeof e === 'object' && e !== null; depth++) {
    if ((e as { code?: unknown }).code === '22021') {
      return problemOf('validation_failed', {
        detail:
          'The request holds text that cannot be stored (U+0000, or characters outside UTF-8).',
        extras: { errors: fieldErrorsOf([['', NUL_REASON]]) },
      });
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** Errors raised by body-parser, the router or http-errors carry `type`/`status` and `expose`. */
function fromClientError(error: unknown): HttpProblem | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { type?: unknown; status?: unknown; statusCode?: unknown; expose?: unknown };
  switch (e.type) {
    case 'entity.parse.failed':
      return problemOf('malformed_json', { detail: 'The body is not valid JSON.' });
    case 'entity.too.large':
      return problemOf('body_too_large', {
        detail: 'The body is larger than this endpoint accepts.',
      });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return problemOf('unsupported_media_type', {
        detail: 'The body encoding or charset is not supported.',
      });
    case 'request.aborted':
    case 'request.size.invalid':
      return problemOf('bad_request', { detail: 'The body was incomplete.' });
  }
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && e.expose !== false) {
    return problemOf(status === 404 ? 'not_found' : 'bad_request', {
      detail: 'The request could not be read.',
      status,
    });
  }
  return null;
}
