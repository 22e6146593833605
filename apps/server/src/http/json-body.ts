import { isUtf8 } from 'node:buffer';
import express from 'express';
import type { Request, RequestHandler, Response } from 'express';

const EMPTY_BODY = Symbol('galley.emptyJsonBody');
type Marked = Request & { [EMPTY_BODY]?: boolean };

/**
 * express.json that notes an empty body: body-parser turns "" into {}, but an empty body where one
 * is required is a 400 here, not an empty object. Any JSON value is parsed (a scalar is valid
 * JSON of the wrong type: 422 from the schema, not 400); bytes that are not UTF-8 are not JSON.
 */
export function jsonParser(limitBytes: number): RequestHandler {
  let parser = parsers.get(limitBytes);
  if (!parser) {
    parser = newJsonParser(limitBytes);
    parsers.set(limitBytes, parser);
  }
  return parser;
}

/** One parser per limit: building one is a visible share of a small request. */
const parsers = new Map<number, RequestHandler>();

function newJsonParser(limitBytes: number): RequestHandler {
  return express.json({
    limit: limitBytes,
    strict: false,
    type: ['application/json', 'application/*+json'],
    verify: (req, _res, buf, encoding) => {
      (req as Marked)[EMPTY_BODY] = buf.length === 0;
      if (/^utf-?8$/i.test(encoding) && !isUtf8(buf)) throw notUtf8();
    },
  });
}

/** Answered like body-parser's own parse failures (400 `malformed_json`, see errors.ts). */
function parseFailure(message: string): Error {
  return Object.assign(new Error(message), { type: 'entity.parse.failed' });
}

const notUtf8 = () => parseFailure('The body is not UTF-8.');

/** True when the request carried a non-empty JSON body (after `jsonParser` ran). */
export function hasJsonBody(req: Request): boolean {
  return req.body !== undefined && (req as Marked)[EMPTY_BODY] !== true;
}

/**
 * Runs the JSON parser now, so handlers can read the body after their own 404/403/423 checks.
 * A small body is usually in memory by then, whole: it is read at once (see `readBuffered`).
 */
export function readJson(req: Request, res: Response, limitBytes: number): Promise<unknown> {
  if (req.body !== undefined || req.readableEnded) return Promise.resolve(req.body as unknown);
  try {
    refuseDeclaredOver(req, limitBytes);
    refuseOtherCharsets(req);
    if (readBuffered(req, limitBytes)) return Promise.resolve(req.body as unknown);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error('body parser failed'));
  }
  return new Promise((resolve, reject) => {
    jsonParser(limitBytes)(req, res, (error?: unknown) => {
      if (error === undefined) resolve(req.body);
      else reject(error instanceof Error ? error : new Error('body parser failed'));
    });
  });
}

/**
 * A body declared larger than the limit is 413 before a byte of it is read (the answer closes
 * the connection): body-parser would first wait for the whole body to arrive, or for the
 * request to time out. A compressed body is judged by its inflated size, as it is read.
 */
function refuseDeclaredOver(req: Request, limitBytes: number): void {
  const coding = req.headers['content-encoding'];
  if ((coding === undefined || coding === 'identity') && declaredLength(req) > limitBytes) {
    throw Object.assign(new Error('declared too large'), { type: 'entity.too.large' });
  }
}

/** The body length the request declares (`Content-Length`), or NaN. */
export function declaredLength(req: Request): number {
  return Number(req.headers['content-length']);
}

/**
 * JSON bodies are UTF-8: a body declared in another charset is 415, as body-parser answers for
 * most (it would decode UTF-16 and UTF-32, and then call their bytes malformed JSON).
 */
function refuseOtherCharsets(req: Request): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw Object.assign(new Error(`charset ${charset}`), { type: 'charset.unsupported' });
  }
}

/** The content types read by `readBuffered`; any other form is body-parser's to judge. */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses the body at once when every byte of it is already buffered, as body-parser would, and
 * answers whether it did. Only the plain case: `Content-Length` within the limit, plain JSON in
 * UTF-8, not compressed. body-parser waits for the stream's end event, which can come an
 * event-loop turn after the bytes: for a small write that wait was a visible share of it.
 */
function readBuffered(req: Request, limitBytes: number): boolean {
  const { headers } = req;
  const length = declaredLength(req);
  if (
    !(length > 0 && length <= limitBytes) ||
    req.readableLength !== length ||
    headers['transfer-encoding'] !== undefined ||
    headers['content-encoding'] !== undefined ||
    !PLAIN_JSON_TYPES.has(headers['content-type']?.toLowerCase() ?? '')
  ) {
    return false;
  }
  const bytes = req.read(length) as Buffer | null;
  if (bytes === null) return false;
  let text: string;
  try {
    // Drops a byte-order mark, as body-parser does.
    text = utf8.decode(bytes);
  } catch {
    throw notUtf8();
  }
  try {
    // body-parser reads a body that held only a byte-order mark as {}.
    req.body = text === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    throw parseFailure('The body is not valid JSON.');
  }
  (req as Marked)[EMPTY_BODY] = false;
  return true;
}
