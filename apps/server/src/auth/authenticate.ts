import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { SESSION_COOKIE } from '@galley/core';
import type { Store } from '@galley/store';
import type { Deps } from '../deps.js';
import { isWriteMethod } from '../http/editor-client.js';
import { problemOf } from '../http/problem.js';
import type { AuthState } from './context.js';
import { authOf, sessionAuthOf, setAuthState } from './context.js';

export { SESSION_COOKIE };

/** RFC 6750 §2.1: the scheme (any case), one or more spaces, the token. */
const BEARER = /^Bearer +([!-~]+)$/i;

/**
 * Resolves the caller from `Authorization: Bearer` (first) or the screen session cookie, and
 * records the result for `authOf`/`maybeAuth`. It answers nothing itself: routes that need an
 * identity use `requireAuth`. The rest of the request runs where the store's caches answer what
 * the database holds now (on PostgreSQL after one shared read of its change count), so a token
 * revoked or a member removed through any process is refused by the next request.
 */
export function authenticate({ store }: Pick<Deps, 'store'>): RequestHandler {
  return (req, _res, next) =>
    store.withFreshCaches(async () => {
      const authorization = req.get('authorization');
      setAuthState(
        req,
        authorization !== undefined && sentTwice(req.rawHeaders, 'authorization')
          ? { ok: false, failure: 'malformed' }
          : await resolveAuth(store, authorization, req.get('cookie')),
      );
      next();
    });
}

/**
 * Whether `name` (lower case) comes more than once. Node keeps the first of two Authorization
 * headers and drops the other; a proxy may have read the other one, so two are no credentials.
 */
function sentTwice(rawHeaders: string[], name: string): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = rawHeaders[i]!;
    if (header.length === name.length && header.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/**
 * Whether the request's credentials (its bearer token or session cookie) still prove the same
 * account: an answer that stays open (an event stream) asks again from time to time, so a
 * revoked token or an ended session stops it.
 */
export async function stillAuthenticated(
  store: Store,
  req: Request,
  accountNumber: number,
): Promise<boolean> {
  const state = await store.withFreshCaches(() =>
    resolveAuth(store, req.get('authorization'), req.get('cookie')),
  );
  return state.ok && state.auth.account.accountNumber === accountNumber;
}

async function resolveAuth(
  store: Store,
  authorization: string | undefined,
  cookies: string | undefined,
): Promise<AuthState> {
  if (authorization !== undefined) {
    const token = BEARER.exec(authorization.trim())?.[1];
    if (!token) return { ok: false, failure: 'malformed' };
    const check = await store.tokens.authenticate(token);
    if (!check.ok) return { ok: false, failure: check.code };
    return { ok: true, auth: { via: 'token', account: check.account, tokenId: check.tokenId } };
  }
  const sessionId = parseCookies(cookies ?? '')[SESSION_COOKIE];
  if (sessionId === undefined) return { ok: false, failure: 'missing' };
  const check = await store.sessions.authenticate(sessionId);
  if (!check.ok) return { ok: false, failure: check.code };
  const { account, sessionKey, csrfToken, expiresAt } = check;
  return { ok: true, auth: { via: 'session', account, sessionKey, csrfToken, expiresAt } };
}

/**
 * 401 without an identity; for a screen session, writes also need `X-CSRF-Token` equal to the
 * session's token (403 `csrf_failed`).
 */
export const requireAuth: RequestHandler = (req, _res, next) => {
  const auth = authOf(req);
  if (auth.via === 'session' && isWriteMethod(req.method)) {
    const sent = Buffer.from(req.get('x-csrf-token') ?? '');
    const expected = Buffer.from(auth.csrfToken);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      throw problemOf('csrf_failed', {
        detail: 'Writes from the screen need the X-CSRF-Token header.',
      });
    }
  }
  next();
};

/** After `requireAuth`: only a person's screen session may pass (403 `session_required`). */
export const requireSession: RequestHandler = (req, _res, next) => {
  sessionAuthOf(req);
  next();
};

export function sessionCookie(
  value: string,
  options: { secure: boolean; maxAgeSeconds: number },
): string {
  return serializeCookie(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    path: '/',
    maxAge: options.maxAgeSeconds,
  });
}
