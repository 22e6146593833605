import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

type Header = [name: string, value: string];

/** The content policy of `/api/` answers: they are data, never a page that loads anything. */
export const API_CONTENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** OWASP's security headers for a REST service, on every `/api/` answer (HSTS aside). */
export const API_SECURITY_HEADERS: readonly Header[] = [
  ['Content-Security-Policy', API_CONTENT_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/**
 * The headers every answer carries: `X-Request-Id`, `Cache-Control: private, no-store` (every
 * answer depends on who asks) and security headers. Screen pages get helmet's full set (CSP,
 * frame, referrer, cross-origin policies); `/api/` answers get OWASP's set for REST services, as
 * a browser never renders them as a page. HSTS only where the service is reached over HTTPS.
 *
 * None of them depends on the request beyond its path, so they are computed once, here: helmet
 * run per request was a visible share of a cheap read.
 */
export function answerHeaders(options: { https: boolean }): RequestHandler {
  const hsts: Header[] = options.https
    ? [['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']]
    : [];
  const api: Header[] = [...API_SECURITY_HEADERS, ...hsts];
  const pages = headersSetBy(
    helmet({
      strictTransportSecurity: options.https,
      contentSecurityPolicy: {
        directives: { upgradeInsecureRequests: options.https ? [] : null },
      },
    }),
  );
  return (req, res, next) => {
    res.setHeader('X-Request-Id', req.id);
    res.setHeader('Cache-Control', 'private, no-store');
    for (const [name, value] of req.url.startsWith('/api/') ? api : pages) {
      res.setHeader(name, value);
    }
    next();
  };
}

/** The headers a synchronous middleware (helmet) sets, read off a recording stand-in. */
function headersSetBy(middleware: ReturnType<typeof helmet>): Header[] {
  const headers: Header[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => undefined,
  };
  let done = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error('helmet failed');
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}
