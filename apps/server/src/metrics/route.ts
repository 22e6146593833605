import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Express, Request, RequestHandler } from 'express';
import { maybeAuth } from '../auth/context.js';
import { OFFICE_EMAIL } from '../first-start.js';
import { problemOf } from '../http/problem.js';
import type { ServiceMetrics } from './metrics.js';

/** Where each request's router was mounted (`/api/v1`, …), for its route label. */
const mounts = new WeakMap<Request, string>();

/** Put first in a mounted chain: the route label of its requests starts with the mount path. */
export const noteMount: RequestHandler = (req, _res, next) => {
  mounts.set(req, req.baseUrl);
  next();
};

/**
 * The route template a request matched (`/api/v1/projects/:project`), never its concrete path, so
 * the labels stay few; `(unmatched)` for what no route took (404, 405).
 */
function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? (mounts.get(req) ?? '') + path : '(unmatched)';
}

/** Times every request, from arrival to the end of its answer (or the client leaving). */
export function requestMetrics(metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const status = res.headersSent ? String(res.statusCode) : 'aborted';
      const labels = { method: req.method, route: routeOf(req), status };
      metrics.requests.observe(labels, (performance.now() - started) / 1000);
    });
    next();
  };
}

const BEARER = /^Bearer +([!-~]+)$/i;

/**
 * `GET /metrics` (Prometheus text format) for the whole service: from a loopback address, with
 * `Authorization: Bearer <GALLEY_METRICS_TOKEN>`, or with an API token of the service office;
 * 403 `forbidden` otherwise. Behind a proxy on the same host, set GALLEY_TRUST_PROXY so the
 * client's own address is judged, not the proxy's. Not counted against the rate limit.
 */
export function metricsRoute(
  app: Express,
  options: { metrics: ServiceMetrics; metricsToken: string | null },
): void {
  const secret = options.metricsToken === null ? null : Buffer.from(options.metricsToken);
  const allowed = (req: Request): boolean => {
    if (isLoopback(req.ip)) return true;
    if (maybeAuth(req)?.account.email === OFFICE_EMAIL) return true;
    const sent = BEARER.exec(req.get('authorization')?.trim() ?? '')?.[1];
    if (secret === null || sent === undefined) return false;
    const given = Buffer.from(sent);
    return given.length === secret.length && timingSafeEqual(given, secret);
  };
  app.get('/metrics', async (req, res) => {
    if (!allowed(req)) {
      throw problemOf('forbidden', {
        detail:
          'Metrics are read from the host itself, with GALLEY_METRICS_TOKEN, or with a service office token.',
      });
    }
    const text = await options.metrics.gather();
    res.setHeader('Cache-Control', 'no-store');
    res.type(options.metrics.registry.contentType).send(text);
  });
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}
