import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import type { DestinationStream, Level, Logger } from 'pino';
import type { RequestHandler } from 'express';

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

/** Log lines held while standard output cannot take them; beyond this they are dropped. */
const HELD_LOG_BYTES = 1024 * 1024;

/** The server's structured logger, to standard output unless a destination is given. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level }, destination ?? standardOutput());
}

/**
 * Standard output, where a write that fails (a full disk under a redirected log, a closed pipe)
 * costs the line, not the service: unhandled, the error ended the process. Said once on standard
 * error. Written synchronously: pino's default buffers lines and, when they cannot be written,
 * keeps the process from ever exiting (its exit hook waits for a flush that never succeeds); each
 * line is tried afresh, so logging resumes once there is room again.
 */
function standardOutput(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: true, maxLength: HELD_LOG_BYTES });
  let said = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (said) return;
    said = true;
    try {
      writeSync(
        2,
        `galley: the log cannot be written (${error.code ?? error.message}); requests go on, their lines are lost\n`,
      );
    } catch {
      // Standard error is gone as well: nothing left to tell.
    }
  });
  return stream;
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
