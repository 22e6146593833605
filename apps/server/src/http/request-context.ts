import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a sane token, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * `X-Request-Id` on the answer and `Cache-Control: private, no-store` on every answer. The cache
 * header is set again just before the head is written, so no later middleware (static files,
 * downloads) can replace it.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  res.setHeader('X-Request-Id', req.id as string);
  res.setHeader('Cache-Control', 'private, no-store');
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    res.setHeader('Cache-Control', 'private, no-store');
    return writeHead(...args);
  }) as typeof res.writeHead;
  next();
};
