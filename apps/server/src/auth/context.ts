import type { Account } from '@galley/store';
import type { Request } from 'express';
import { problemOf } from '../http/problem.js';

/** Who is calling, and how they proved it. */
export type AuthContext =
  | { via: 'token'; account: Account; tokenId: string }
  | { via: 'session'; account: Account; sessionKey: string; csrfToken: string; expiresAt: string };

/** Why a request carries no identity (answered as the 401's detail). */
export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'expired' | 'revoked';

export type AuthState = { ok: true; auth: AuthContext } | { ok: false; failure: AuthFailure };

const states = new WeakMap<Request, AuthState>();

export function setAuthState(req: Request, state: AuthState): void {
  states.set(req, state);
}

/** The caller's identity if the request proved one (no answer is sent). */
export function maybeAuth(req: Request): AuthContext | null {
  const state = states.get(req);
  return state?.ok ? state.auth : null;
}

const FAILURE_DETAIL: Record<AuthFailure, string> = {
  missing: 'Send Authorization: Bearer <API token>.',
  malformed: 'The Authorization header or token is malformed.',
  unknown: 'The token or session is not known.',
  expired: 'The token or session has expired.',
  revoked: 'The token has been revoked.',
};

/** The caller's identity, or a 401 `unauthorized` problem. */
export function authOf(req: Request): AuthContext {
  const state = states.get(req) ?? { ok: false, failure: 'missing' };
  if (state.ok) return state.auth;
  throw problemOf('unauthorized', {
    detail: FAILURE_DETAIL[state.failure],
    headers: {
      'WWW-Authenticate':
        state.failure === 'missing'
          ? 'Bearer realm="galley"'
          : 'Bearer realm="galley", error="invalid_token"',
    },
  });
}

export type SessionAuth = Extract<AuthContext, { via: 'session' }>;

/** The caller's screen session: 401 without identity, 403 `session_required` for a token. */
export function sessionAuthOf(req: Request): SessionAuth {
  const auth = authOf(req);
  if (auth.via === 'session') return auth;
  throw problemOf('session_required', { detail: 'This needs a screen session, not an API token.' });
}
