import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { API_SECURITY_HEADERS } from './answer-headers.js';
import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';
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
      ? problem(431, 'headers_too_large', 'The request line or headers are too large.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problem(408, 'request_timeout', 'The request was not received in time.')
        : problem(400, 'bad_request', 'The request is not valid HTTP.');
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
 * A request whose `Expect` is not `100-continue` (Node's `checkExpectation`): 417, answered like
 * every other error rather than Node's bare status line. Its body is not read: the connection
 * closes after the answer.
 */
export function answerExpectationFailed(_req: IncomingMessage, res: ServerResponse): void {
  const refusal = problem(417, 'expectation_failed', 'Only `Expect: 100-continue` is understood.');
  const body = JSON.stringify(refusal.toBody());
  res.writeHead(refusal.status, refusalHeaders(refusal, body)).end(body);
}

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
