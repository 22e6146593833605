import pino from 'pino';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';
import { requestIdOf } from './request-context.js';

/** The server's structured logger; credentials never reach the log. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      'req.headers["x-csrf-token"]',
      'res.headers["set-cookie"]',
    ],
  });
}

/** One log line per request with its id, status and duration; also assigns `req.id`. */
export function requestLogger(logger: Logger): RequestHandler {
  if (logger.level === 'silent') {
    return (req, _res, next) => {
      req.id = requestIdOf(req);
      next();
    };
  }
  return pinoHttp({
    logger,
    genReqId: (req) => requestIdOf(req),
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  });
}
