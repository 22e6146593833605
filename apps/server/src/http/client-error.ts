import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { API_SECURITY_HEADERS } from './answer-headers.js';
import { problemOf, PROBLEM_CONTENT_TYPE } from './problem.js';
import type { HttpProblem } from './problem.js';

/**
 * What Node's HTTP parser refuses before any route runs (a malformed request line or header,
 * headers past the size limit, a request that took too long) answered like every other error:
 * a problem with `Cache-Control: private, no-store`, a new `X-Request-Id` (none could be read) and
 * the REST security headers, then the connection is closed (the parser cannot find where the
 * next request would start). Node's default answers a bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problemOf('headers_too_large', { detail: 'The request line or headers are too large.' })
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problemOf('request_timeout', { detail: 'The request was not received in time.' })
        : problemOf('bad_request', { detail: 'The request is not valid HTTP.' });
  const body = JSON.stringify(refusal.toBody());
  socket.end(
    [
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`,
      ...refusalHeaders(refusal, body).map(([name, value]) => `${name}: ${value}`),
      '',
      body,
    ].join('\r\n'),
  );
}

/**
 * What Node hands over but HTTP refuses, answered through the app like every other error (so it
 * is logged and echoes the caller's `X-Request-Id`); the body is not read, and the connection
 * closes after the answer:
 * - an HTTP/1.1 request without `Host` (RFC 9112 §3.2): 400. The server is made with Node's own
 *   check off (`requireHostHeader: false`, server.ts), which answers a bare status line.
 * - an `Expect` other than `100-continue` (Node hands it over as `checkExpectation`, not
 *   `request`): 417.
 */
export const refuseBadRequestHead: RequestHandler = (req, _res, next) => {
  const { expect, host } = req.headers;
  if (host === undefined && req.httpVersion === '1.1') {
    throw problemOf('bad_request', {
      detail: 'An HTTP/1.1 request needs a Host header.',
      headers: { Connection: 'close' },
    });
  }
  if (expect === undefined || expect.toLowerCase() === '100-continue') {
    next();
    return;
  }
  throw problemOf('expectation_failed', {
    detail: 'Only `Expect: 100-continue` is understood.',
    headers: { Connection: 'close' },
  });
};

function refusalHeaders(refusal: HttpProblem, body: string): Array<[string, string]> {
  return [
    ['Content-Type', PROBLEM_CONTENT_TYPE],
    ['Content-Length', String(Buffer.byteLength(body))],
    ['Cache-Control', 'private, no-store'],
    ['X-Request-Id', randomUUID()],
    ...API_SECURITY_HEADERS,
    ['Connection', 'close'],
  ];
}
