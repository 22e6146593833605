import type { IncomingMessage } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { HttpProblem, problem, sendProblem } from './problem.js';

/** The last route: anything unmatched is a 404 problem. */
export const notFound: RequestHandler = (req) => {
  throw problem(404, 'not_found', `Nothing at ${req.method} ${req.path}.`);
};

/**
 * Maps every error to a problem. Known client errors (body parser, URL decoding) keep their 4xx;
 * anything else is logged and answered 500 without detail, never with a stack trace.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
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
    if (known) {
      // The rest of an unread body is not worth reading after an error about it.
      if (known.status === 413) res.setHeader('Connection', 'close');
      sendProblem(res, known);
      return;
    }
    logger.error({ err: error, reqId: req.id }, 'unexpected error');
    sendProblem(res, problem(500, 'internal_error', 'The server could not answer this request.'));
  };
}

/** The error a request raises when its client disconnects before the body is in. */
function isClientGone(error: unknown, req: IncomingMessage): boolean {
  return (error as { code?: unknown } | null)?.code === 'ECONNRESET' && !req.complete;
}

/** Errors raised by body-parser, the router or http-errors carry `type`/`status` and `expose`. */
function fromClientError(error: unknown): HttpProblem | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { type?: unknown; status?: unknown; statusCode?: unknown; expose?: unknown };
  switch (e.type) {
    case 'entity.parse.failed':
      return problem(400, 'malformed_json', 'The body is not valid JSON.');
    case 'entity.too.large':
      return problem(413, 'body_too_large', 'The body is larger than this endpoint accepts.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return problem(
        415,
        'unsupported_media_type',
        'The body encoding or charset is not supported.',
      );
    case 'request.aborted':
    case 'request.size.invalid':
      return problem(400, 'bad_request', 'The body was incomplete.');
  }
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && e.expose !== false) {
    return problem(
      status,
      status === 404 ? 'not_found' : 'bad_request',
      'The request could not be read.',
    );
  }
  return null;
}
