import express from 'express';
import type { Router } from 'express';
import { z } from 'zod';
import { PageQuery, Timestamp } from '@galley/core';
import { MAX_TOKEN_DAYS, tokenListing } from '@galley/store';
import type { Account, TokenRecord } from '@galley/store';
import type { Deps } from '../deps.js';
import { decodeCursor, nextPageUrl, pageOf } from '../http/paging.js';
import { parseBody, parseQuery } from '../http/parse.js';
import { problemOf } from '../http/problem.js';
import { requireAuth, requireSession, sessionCookie } from './authenticate.js';
import { authOf, sessionAuthOf } from './context.js';

const LoginBody = z.strictObject({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});
/** A token is valid 90 days at most (decisions §2); fewer may be asked for. */
const IssueTokenBody = z.strictObject({ days: z.int().min(1).max(MAX_TOKEN_DAYS).optional() });
/**
 * The largest sign-in or token body: theirs are a few hundred bytes, and anyone may send a
 * sign-in, so it is not read up to the interfaces' JSON limit (413 beyond).
 */
const AUTH_BODY_BYTES = 16 * 1024;
/** Where a page of the token list ended: the list is newest first, then by id. */
const TokenCursor = z.strictObject({ after: z.tuple([Timestamp, z.string().min(1)]) });

/** Whether `token` comes after the cursor's place in the list's order. */
function isAfter(token: TokenRecord, [createdAt, id]: readonly [string, string]): boolean {
  return token.createdAt < createdAt || (token.createdAt === createdAt && token.id > id);
}

export function accountJson(account: Account) {
  return { account_number: account.accountNumber, email: account.email, name: account.name };
}

/**
 * The screen's sign-in and its API-token page: `POST /auth/login`, `POST /auth/logout`,
 * `GET /auth/session`, and `GET|POST /auth/tokens`, `GET|DELETE /auth/tokens/{id}` (session
 * only). The token list is paged like the interfaces' lists (`per_page`, `page`).
 */
export function authRouter({ store, config }: Deps): Router {
  const router = express.Router({ caseSensitive: true });
  const limit = Math.min(config.jsonLimitBytes, AUTH_BODY_BYTES);
  const secure = config.baseUrl.startsWith('https:');

  router.post('/login', async (req, res) => {
    const { email, password } = await parseBody(req, res, LoginBody, limit);
    const account = await store.accounts.verifyLogin(email, password);
    if (!account)
      throw problemOf('invalid_credentials', { detail: 'The e-mail or the password is wrong.' });
    const ttl = config.sessionTtlSeconds;
    // Sign-ins are rare: a good moment to drop sessions that ended, without a timer.
    await store.sessions.purgeExpired();
    const session = await store.sessions.create({
      accountNumber: account.accountNumber,
      ttlSeconds: ttl,
    });
    res.setHeader('Set-Cookie', sessionCookie(session.sessionId, { secure, maxAgeSeconds: ttl }));
    res.json({
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt,
      account: accountJson(account),
    });
  });

  router.post('/logout', requireAuth, requireSession, async (req, res) => {
    await store.sessions.deleteByKey(sessionAuthOf(req).sessionKey);
    res.setHeader('Set-Cookie', sessionCookie('', { secure, maxAgeSeconds: 0 }));
    res.status(204).end();
  });

  router.get('/session', requireAuth, requireSession, (req, res) => {
    const auth = sessionAuthOf(req);
    res.json({
      account: accountJson(auth.account),
      csrf_token: auth.csrfToken,
      expires_at: auth.expiresAt,
    });
  });

  router.get('/tokens', requireAuth, requireSession, async (req, res) => {
    const { per_page, page } = parseQuery(req, PageQuery);
    const after = decodeCursor(TokenCursor, page)?.after;
    // A person's own tokens: few enough to read whole and page here.
    const all = await store.tokens.list(authOf(req).account.accountNumber);
    const rows = after ? all.filter((token) => isAfter(token, after)) : all;
    const { shown, cursor } = pageOf(rows, per_page, (last) => ({
      after: [last.createdAt, last.id],
    }));
    res.json({
      tokens: shown.map(tokenListing),
      next_page_url: cursor && nextPageUrl(config.baseUrl, req, cursor),
    });
  });

  router.get('/tokens/:id', requireAuth, requireSession, async (req, res) => {
    const tokens = await store.tokens.list(authOf(req).account.accountNumber);
    const token = tokens.find((candidate) => candidate.id === req.params.id);
    if (!token) throw problemOf('not_found', { detail: 'No such token.' });
    res.json(tokenListing(token));
  });

  router.post('/tokens', requireAuth, requireSession, async (req, res) => {
    const { days } = await parseBody(req, res, IssueTokenBody, limit);
    const { token, record } = await store.tokens.issue({
      accountNumber: authOf(req).account.accountNumber,
      ...(days ? { days } : {}),
    });
    res
      .status(201)
      .location(`${config.baseUrl}/auth/tokens/${record.id}`)
      .json({ token, ...tokenListing(record) });
  });

  router.delete('/tokens/:id', requireAuth, requireSession, async (req, res) => {
    const idOrPrefix = String(req.params.id);
    // No token is named with U+0000, and PostgreSQL cannot even look for one (see http/parse.ts).
    if (idOrPrefix.includes('\0'))
      throw problemOf('not_found', { detail: 'No such active token.' });
    const revoked = await store.tokens.revoke({
      accountNumber: authOf(req).account.accountNumber,
      idOrPrefix,
    });
    if (!revoked) throw problemOf('not_found', { detail: 'No such active token.' });
    res.status(204).end();
  });

  return router;
}
