import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { maybeAuth } from '../auth/context.js';
import { problem } from './problem.js';

const WINDOW_SECONDS = 60;

/**
 * `perMinute` requests a minute per credential (token or screen session), per IP address for
 * requests without a valid one. Runs after `authenticate`. Every answer carries the
 * `RateLimit-Limit/-Remaining/-Reset/-Policy` headers; 429 also `Retry-After`. Counters live in
 * this process.
 */
export function rateLimiter(perMinute: number): RequestHandler {
  const limiter = new RateLimiterMemory({ points: perMinute, duration: WINDOW_SECONDS });
  const policy = `${perMinute};w=${WINDOW_SECONDS}`;
  const limit = String(perMinute);
  return async (req, res, next) => {
    let outcome: RateLimiterRes;
    try {
      outcome = await limiter.consume(keyOf(req));
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const reset = setHeaders(res, refused);
      res.setHeader('Retry-After', reset);
      throw problem(429, 'rate_limited', `More than ${perMinute} requests a minute.`);
    }
    setHeaders(res, outcome);
    next();
  };

  function setHeaders(res: Response, outcome: RateLimiterRes): string {
    const reset = String(Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)));
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit-Limit', limit);
    res.setHeader('RateLimit-Remaining', String(outcome.remainingPoints));
    res.setHeader('RateLimit-Reset', reset);
    return reset;
  }
}

function keyOf(req: Request): string {
  const auth = maybeAuth(req);
  if (auth?.via === 'token') return `token:${auth.tokenId}`;
  if (auth?.via === 'session') return `session:${auth.sessionKey}`;
  return `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`;
}
