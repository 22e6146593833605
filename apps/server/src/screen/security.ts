import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * The screen's pages run only scripts and styles served from this origin: no inline script, no
 * eval, no plugins, no framing by others. The preview frame is the only frame, same origin.
 */
export const SCREEN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Identifiers are opaque prefixed strings; anything else cannot name a project or a page. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export const screenHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', SCREEN_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/** Constant-time comparison of a CSRF token sent in a form field with the session's. */
export function sameToken(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
