import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { maybeAuth } from '../auth/context.js';
import { problem, sendProblem } from './problem.js';

/**
 * `perMinute` requests a minute per credential (token or screen session), per IP address for
 * requests without a valid one. Runs after `authenticate`. 429 carries `Retry-After` and the
 * `RateLimit-Limit/-Remaining/-Reset/-Policy` headers. Counters live in this process.
 */
export function rateLimiter(perMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator: (req) => {
      const auth = maybeAuth(req);
      if (auth?.via === 'token') return `token:${auth.tokenId}`;
      if (auth?.via === 'session') return `session:${auth.sessionKey}`;
      return `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`;
    },
    handler: (_req, res) => {
      sendProblem(res, problem(429, 'rate_limited', `More than ${perMinute} requests a minute.`));
    },
  });
}
