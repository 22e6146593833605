import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import type { DestinationStream, Level, Logger } from 'pino';
import type { RequestHandler } from 'express';
import { LogOutput } from './log-output.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id (see `requestIdOf`), assigned by `requestLogger`. */
    id: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a sane token, else a new UUID. */
function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** The server's structured logger, to standard output unless a destination is given. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level }, destination ?? new LogOutput(1));
}

function levelOf(status: number, finished: boolean): Level {
  if (status >= 500) return 'error';
  return status >= 400 || !finished ? 'warn' : 'info';
}

/**
 * One log line per request once it ends: its id, method, URL, status and duration, at `info`
 * (`warn` for 4xx and for a client that went away before the answer, `error` for 5xx). Also
 * assigns `req.id`. Headers are never logged, so no credential can leak. Written here rather than
 * with pino-http because that builds a child logger per request even when the line is then
 * dropped, a visible share of a cheap read at level `warn`.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    req.id = requestIdOf(req);
    const started = performance.now();
    res.once('close', () => {
      const level = levelOf(res.statusCode, res.writableFinished);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: req.id,
          method: req.method,
          url: req.originalUrl,
          // A client gone before the answer started got no status at all.
          status: res.headersSent ? res.statusCode : null,
          responseTime: Math.round((performance.now() - started) * 1000) / 1000,
        },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });
    next();
  };
}
