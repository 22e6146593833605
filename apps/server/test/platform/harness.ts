// A real server on loopback over a real SQLite file in a temporary folder, with a TestClock and
// one account with a token. Other server tests may import this by relative path.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestClock, openStore } from '@galley/store';
import type { Account, Store } from '@galley/store';
import { loadConfig, startServer } from '@galley/server';
import type { RunningServer, ServerConfig } from '@galley/server';
import type { Logger } from 'pino';

export interface TestServer {
  url: string;
  store: Store;
  clock: TestClock;
  config: ServerConfig;
  server: RunningServer;
  dataDir: string;
  /** An account with a valid token. */
  account: Account;
  password: string;
  token: string;
  /** Creates another account with a token. */
  addAccount(
    email: string,
    name?: string,
  ): Promise<{ account: Account; token: string; password: string }>;
  close(): Promise<void>;
}

/**
 * Starts a server on a new SQLite store in a temporary folder, or on `opened` (for example a
 * `describeStores` target's store, to run HTTP tests on PostgreSQL too; it is not closed here),
 * logging to `logger` when one is given (else nothing is logged).
 */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  opened?: { store: Store; clock: TestClock },
  logger?: Logger,
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'galley-server-'));
  const clock = opened?.clock ?? new TestClock();
  const store = opened?.store ?? (await openStore({ kind: 'sqlite', dataDir, clock }));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', ...overrides });
  const server = await startServer({
    store,
    clock,
    config,
    ...(logger ? { logger } : {}),
    host: '127.0.0.1',
    port: 0,
    baseUrlFromListen: true,
  });
  const addAccount = async (email: string, name = 'Test person') => {
    const password = `pw-${email}`;
    const created = await store.accounts.create({ email, name, password });
    if (!created.ok) throw new Error(`account ${email}: ${created.code}`);
    const { token } = await store.tokens.issue({ accountNumber: created.account.accountNumber });
    return { account: created.account, token, password };
  };
  const first = await addAccount('ada@example.org', 'Ada');
  return {
    url: server.url,
    store,
    clock,
    config: server.app.deps.config,
    server,
    dataDir,
    ...first,
    addAccount,
    close: async () => {
      await server.close();
      if (!opened) await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
