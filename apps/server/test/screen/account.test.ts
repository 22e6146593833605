import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  screenshot,
  startScreenTest,
  UNLABELLED_CONTROLS,
  whyNoChromium,
} from './screen-harness.js';
import type { ScreenTest } from './screen-harness.js';

const why = whyNoChromium();
if (why) console.warn(`skipped: ${why}`);

describe.skipIf(!!why)('screen: log in, API tokens, log out', () => {
  let t: ScreenTest;
  beforeAll(async () => {
    t = await startScreenTest();
  });
  afterAll(() => t?.close());

  it('sends a person without a session to the login page, and back after logging in', async () => {
    const { page, problems, context } = await t.person();
    await page.goto(`${t.server.url}/account/tokens`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login');
    await page.getByLabel('E-mail').fill(t.server.account.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/wrong/i);
    await page.getByLabel('Password').fill(t.server.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/account\/tokens$/);
    const cookie = (await context.cookies()).find((c) => c.name === 'galley_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    await context.close();
  });

  it('issues a token that is shown once, lists it, and revokes it', async () => {
    const { page, problems, context } = await t.signedIn();
    // The browser's clock a minute after the server's, so the times read as they would in use.
    await page.clock.setFixedTime(new Date(t.server.clock.now().getTime() + 60_000));
    await page.getByRole('link', { name: 'Account → API tokens' }).click();
    await page.getByLabel('Valid for (days)').fill('30');
    await page.getByRole('button', { name: 'Issue token' }).click();
    const shown = page.getByLabel('New token');
    await expect.poll(() => shown.inputValue()).toMatch(/^glly_[A-Za-z0-9_-]{43}$/);
    const token = await shown.inputValue();
    await expect.poll(() => page.locator('#token-list tbody tr').count()).toBe(2);
    await screenshot(page, 'tokens-issued');

    // The token works on the API, and the screen never shows it again.
    const api = await fetch(`${t.server.url}/api/v1/nothing`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.status).toBe(404);
    await page.reload();
    expect(await page.content()).not.toContain(token);
    expect(await page.locator('#issued-token').isHidden()).toBe(true);
    const prefix = token.slice(0, 12);
    const row = page.locator('#token-list tr', { hasText: prefix.slice(0, 8) });
    await expect.poll(() => row.count()).toBe(1);

    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await expect.poll(() => row.textContent()).toContain('revoked');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Revoked' }).textContent())
      .toBe('Revoked: that token no longer opens anything.');
    const revoked = await fetch(`${t.server.url}/api/v1/nothing`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(401);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('logs out: the session ends on the server', async () => {
    const { page, context } = await t.signedIn();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${t.server.url}/projects`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('serves every screen page with a strict CSP, no inline script, and no-store', async () => {
    const { context } = await t.person();
    const cookie = await sessionCookie(t);
    const pages = [
      '/login',
      '/account/tokens',
      '/projects',
      '/projects/prj_x',
      '/projects/prj_x/edit',
    ];
    for (const path of pages) {
      const headers: Record<string, string> = path === '/login' ? {} : { cookie };
      const res = await fetch(`${t.server.url}${path}`, { headers, redirect: 'manual' });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toMatch(/script-src 'self'(;|$)/);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const body = await res.text();
      expect(body).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(body).not.toMatch(/\son[a-z]+=/i);
    }
    await context.close();
  });

  it('every control has a label', async () => {
    const { page, context } = await t.signedIn();
    for (const path of [
      '/account/tokens',
      '/projects',
      '/projects/prj_x',
      '/projects/prj_x/edit',
    ]) {
      await page.goto(`${t.server.url}${path}`);
      const unlabelled = await page.evaluate<string[]>(UNLABELLED_CONTROLS);
      expect(unlabelled, path).toEqual([]);
    }
    await context.close();
  });
});

async function sessionCookie(t: ScreenTest): Promise<string> {
  const res = await fetch(`${t.server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: t.server.account.email, password: t.server.password }),
  });
  return res.headers.get('set-cookie')!.split(';')[0]!;
}
