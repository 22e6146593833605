import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  FIRST_ACCOUNT_NUMBER,
  MAX_TOKEN_DAYS,
  TOKEN_PATTERN,
  isoTime,
  openStore,
} from '@galley/store';
import { describeStores } from './stores.js';

describeStores('accounts', (t) => {
  /** A new account in the target store; its number. */
  async function newAccount(email: string): Promise<number> {
    const created = await t.store.accounts.create({ email, name: 'T', password: 'p' });
    if (!created.ok) throw new Error('setup');
    return created.account.accountNumber;
  }

  it('numbers accounts from 1001 and keeps e-mail unique regardless of case', async () => {
    const { store } = await t.fresh();
    const a = await store.accounts.create({
      email: 'Ada@Example.org ',
      name: 'Ada',
      password: 'pw-1',
    });
    const b = await store.accounts.create({
      email: 'bob@example.org',
      name: 'Bob',
      password: 'pw-2',
    });
    expect(a).toMatchObject({
      ok: true,
      account: { accountNumber: FIRST_ACCOUNT_NUMBER, email: 'ada@example.org' },
    });
    expect(b).toMatchObject({ ok: true, account: { accountNumber: FIRST_ACCOUNT_NUMBER + 1 } });
    expect(
      await store.accounts.create({ email: 'ADA@example.org', name: 'X', password: 'p' }),
    ).toEqual({
      ok: false,
      code: 'email_taken',
    });
    expect(await store.accounts.count()).toBe(2);
  });

  it('gives distinct numbers to concurrent creations', async () => {
    const { store } = await t.fresh();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        store.accounts.create({ email: `p${i}@example.org`, name: `P${i}`, password: 'pw' }),
      ),
    );
    const numbers = results.map((r) => (r.ok ? r.account.accountNumber : 0)).sort();
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => FIRST_ACCOUNT_NUMBER + i));
  });

  it('verifies logins with the Argon2id hash and changes passwords', async () => {
    const created = await t.store.accounts.create({
      email: 'login@example.org',
      name: 'L',
      password: 'right',
    });
    if (!created.ok) throw new Error('setup');
    expect(await t.store.accounts.verifyLogin('LOGIN@example.org', 'right')).toMatchObject({
      name: 'L',
    });
    expect(await t.store.accounts.verifyLogin('login@example.org', 'wrong')).toBeNull();
    expect(await t.store.accounts.verifyLogin('nobody@example.org', 'right')).toBeNull();
    expect(await t.store.accounts.setPassword(created.account.accountNumber, 'new')).toBe(true);
    expect(await t.store.accounts.verifyLogin('login@example.org', 'new')).not.toBeNull();
    const { password_hash: stored } = await t.store.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('account_number', '=', created.account.accountNumber)
      .executeTakeFirstOrThrow();
    expect(stored).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
  });

  it('deletes an account: it signs in no more, and its e-mail is free again', async () => {
    const { store } = await t.fresh();
    const n = await store.accounts
      .create({ email: 'gone@example.org', name: 'G', password: 'pw' })
      .then((created) => (created.ok ? created.account.accountNumber : 0));
    expect(await store.accounts.delete(n)).toBe(true);
    expect(await store.accounts.findByNumber(n)).toBeNull();
    expect(await store.accounts.verifyLogin('gone@example.org', 'pw')).toBeNull();
    expect(await store.accounts.delete(n)).toBe(false);
    const again = await store.accounts.create({
      email: 'gone@example.org',
      name: 'G',
      password: 'pw',
    });
    expect(again.ok).toBe(true);
  });

  it('issues tokens stored only as hashes, expires and revokes them', async () => {
    const n = await newAccount('tok@example.org');
    const { token, record } = await t.store.tokens.issue({ accountNumber: n, days: 1 });
    expect(token).toMatch(TOKEN_PATTERN);
    expect(record.prefix).toBe(token.slice(0, 13));
    const stored = await t.store.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', record.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token.slice(13));

    expect(await t.store.tokens.authenticate(token)).toMatchObject({
      ok: true,
      account: { accountNumber: n },
    });
    const [listed] = await t.store.tokens.list(n);
    expect(listed?.lastUsedAt).toBe(isoTime(t.clock.now()));
    expect(await t.store.tokens.authenticate('glly_short')).toEqual({
      ok: false,
      code: 'malformed',
    });
    expect(await t.store.tokens.authenticate(`glly_${'A'.repeat(43)}`)).toEqual({
      ok: false,
      code: 'unknown',
    });

    t.clock.advanceSeconds(86_400);
    expect(await t.store.tokens.authenticate(token)).toEqual({ ok: false, code: 'expired' });
    t.clock.advanceSeconds(-86_400);

    expect(await t.store.tokens.revoke({ accountNumber: n + 1000, idOrPrefix: record.id })).toBe(
      false,
    );
    expect(await t.store.tokens.revoke({ accountNumber: n, idOrPrefix: record.prefix })).toBe(true);
    expect(await t.store.tokens.revoke({ accountNumber: n, idOrPrefix: record.id })).toBe(false);
    expect(await t.store.tokens.authenticate(token)).toEqual({ ok: false, code: 'revoked' });
    expect((await t.store.tokens.list(n))[0]?.revokedAt).not.toBeNull();
  });

  it('issues tokens for 90 days at most (decisions §2), 90 by default', async () => {
    const n = await newAccount('days@example.org');
    expect(MAX_TOKEN_DAYS).toBe(90);
    const now = t.clock.now().getTime();
    const at = (days: number) => isoTime(new Date(now + days * 86_400_000));
    expect((await t.store.tokens.issue({ accountNumber: n })).record.expiresAt).toBe(at(90));
    const longest = await t.store.tokens.issue({ accountNumber: n, days: 90 });
    expect(longest.record.expiresAt).toBe(at(90));
    for (const days of [0, 91, 365, 1.5]) {
      await expect(t.store.tokens.issue({ accountNumber: n, days })).rejects.toThrow(RangeError);
    }
    expect(await t.store.tokens.list(n)).toHaveLength(2);
  });

  it('sees a revocation by another connection (the CLI, a second server) at once', async () => {
    const n = await newAccount('elsewhere@example.org');
    const { token, record } = await t.store.tokens.issue({ accountNumber: n });
    // As a request asks (on PostgreSQL the caches are used only there).
    const check = () => t.store.withFreshCaches(() => t.store.tokens.authenticate(token));
    expect(await check()).toMatchObject({ ok: true });
    expect(await check()).toMatchObject({ ok: true });
    const other = await openStore(t.options);
    try {
      expect(await other.tokens.revoke({ accountNumber: n, idOrPrefix: record.id })).toBe(true);
    } finally {
      await other.close();
    }
    expect(await check()).toEqual({ ok: false, code: 'revoked' });
  });

  it('writes last_used_at at most once a minute, also for a remembered token', async () => {
    const n = await newAccount('used@example.org');
    const { token } = await t.store.tokens.issue({ accountNumber: n });
    const lastUsed = async () => (await t.store.tokens.list(n))[0]?.lastUsedAt;
    await t.store.tokens.authenticate(token);
    const first = isoTime(t.clock.now());
    expect(await lastUsed()).toBe(first);
    t.clock.advanceSeconds(30);
    await t.store.tokens.authenticate(token);
    expect(await lastUsed()).toBe(first);
    t.clock.advanceSeconds(31);
    await t.store.tokens.authenticate(token);
    expect(await lastUsed()).toBe(isoTime(t.clock.now()));
  });

  it('keeps screen sessions with a CSRF token until they expire', async () => {
    const accountNumber = await newAccount('ses@example.org');
    const session = await t.store.sessions.create({ accountNumber, ttlSeconds: 60 });
    const check = await t.store.sessions.authenticate(session.sessionId);
    expect(check).toMatchObject({
      ok: true,
      csrfToken: session.csrfToken,
      account: { email: 'ses@example.org' },
    });
    expect(await t.store.sessions.authenticate('x')).toEqual({ ok: false, code: 'malformed' });
    t.clock.advanceSeconds(60);
    expect(await t.store.sessions.authenticate(session.sessionId)).toEqual({
      ok: false,
      code: 'expired',
    });
    expect(await t.store.sessions.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.store.sessions.authenticate(session.sessionId)).toEqual({
      ok: false,
      code: 'unknown',
    });
    t.clock.advanceSeconds(-60);
  });

  it('rolls a transaction back whole and keeps data across a reopen', async () => {
    const { store, options } = await t.fresh();
    await expect(
      store.transaction(async (tx) => {
        await tx.accounts.create({ email: 'in-tx@example.org', name: 'A', password: 'p' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.accounts.findByEmail('in-tx@example.org')).toBeNull();
    await store.accounts.create({ email: 'kept@example.org', name: 'K', password: 'p' });
    await store.close();
    const reopened = await openStore(options);
    try {
      expect(await reopened.accounts.findByEmail('kept@example.org')).toMatchObject({ name: 'K' });
    } finally {
      await reopened.close();
    }
  });
});

describe('sqlite settings', () => {
  it('uses WAL with synchronous=FULL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'galley-sqlite-'));
    const store = await openStore({ kind: 'sqlite', dataDir: dir });
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      expect(sync.rows[0]?.synchronous).toBe(2);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
