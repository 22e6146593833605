import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Request, Response } from 'express';

/** Headers of one hop: Node's HTTP handles them, a web Request must not repeat them. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
]);

/**
 * Hands an Express request (its JSON body parsed already) to the SDK's web-standard transport
 * and streams its answer back (SSE included; the client going away cancels the stream). The web
 * transport, unlike its Node wrapper, is also handed requests made up here: the replayed
 * `initialize` that rebuilds a session in another process (sessions.ts).
 */
export async function exchange(
  transport: WebStandardStreamableHTTPServerTransport,
  req: Request,
  res: Response,
): Promise<void> {
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const request = new globalThis.Request(new URL(req.originalUrl, 'http://galley.invalid'), {
    method: req.method,
    headers: webHeaders(req.headers),
    signal: gone.signal,
  });
  const answer = await transport.handleRequest(request, { parsedBody: req.body as unknown });
  res.status(answer.status);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  if (!answer.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  // A client that goes away ends the pipeline with an error: nothing is left to answer. The cast
  // names Node's own web stream: a package type-checked with the DOM library (the client's tests
  // import this file) sees the DOM's ReadableStream, which Readable.fromWeb does not take.
  const body = answer.body as NodeReadableStream<Uint8Array>;
  await pipeline(Readable.fromWeb(body), res).catch(() => undefined);
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) web.append(name, one);
  }
  return web;
}
