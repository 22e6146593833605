// A real server on loopback over a real SQLite file in a temporary folder (in the multi-host
// shape: a fresh PostgreSQL database and bucket, see stores.ts), with a TestClock and one account
// with a token. Other server tests may import this by relative path.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestClock, openStore } from '@galley/store';
import type { Account, Store, StoreOptions } from '@galley/store';
import { loadConfig, startServer } from '@galley/server';
import type { Resolve, RunningServer, ServerConfig } from '@galley/server';
import type { Logger } from 'pino';
import { openTestStore } from '../../../../packages/store/test/stores.js';

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
 * Starts a server on a new store (SQLite in a temporary folder, or the multi-host shape), or on
 * `opened` (for example a
 * `describeStores` target's store, to run HTTP tests on PostgreSQL too; it is not closed here),
 * logging to `logger` when one is given (else nothing is logged). `opened.resolve` answers the
 * server's look-ups of host names instead of the system's resolver.
 */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  opened?: { store?: Store; clock?: TestClock; resolve?: Resolve },
  logger?: Logger,
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'galley-server-'));
  const clock = opened?.clock ?? new TestClock();
  const own = opened?.store ? undefined : await openTestStore(dataDir, clock);
  const store = opened?.store ?? own!.store;
  const config = loadConfig({}, { dataDir, logLevel: 'silent', ...overrides });
  const server = await startServer({
    store,
    clock,
    config,
    ...(logger ? { logger } : {}),
    ...(opened?.resolve ? { resolve: opened.resolve } : {}),
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
      await own?.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SecondProcess {
  url: string;
  close(): Promise<void>;
}

/**
 * Another server on `store` (opened again, as another process would) without the harness's
 * account: process A made it in the same database.
 */
export async function startProcess(
  store: Store,
  clock: TestClock,
  overrides: Partial<ServerConfig> = {},
): Promise<SecondProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'galley-server-'));
  const config = loadConfig(
    {},
    { dataDir, logLevel: 'silent', rateLimitPerMinute: 1_000_000, ...overrides },
  );
  const server = await startServer({
    store,
    clock,
    config,
    host: '127.0.0.1',
    port: 0,
    baseUrlFromListen: true,
  });
  return {
    url: server.url,
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another process on the target's database: a connection of its own (as another process has)
 * and a server on it; closing it closes both.
 */
export async function startOtherProcess(
  t: { options: StoreOptions; clock: TestClock },
  overrides: Partial<ServerConfig> = {},
): Promise<SecondProcess> {
  const store = await openStore(t.options);
  const started = await startProcess(store, t.clock, overrides);
  return {
    url: started.url,
    close: async () => {
      await started.close();
      await store.close();
    },
  };
}

/**
 * Starts a multipart upload of one file field on a raw socket, sends `sentBytes` of the file out
 * of the many more it declares, then disconnects: a client gone mid-file.
 */
export async function cutOffUpload(
  s: TestServer,
  path: string,
  options: { field: string; fields?: Record<string, string>; headers?: Record<string, string> },
  sentBytes: number,
): Promise<void> {
  const boundary = 'cut-off-boundary';
  const parts = Object.entries(options.fields ?? {}).map(
    ([name, value]) =>
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = `${parts.join('')}--${boundary}\r\ncontent-disposition: form-data; name="${options.field}"; filename="x.png"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  const { hostname, port } = new URL(s.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const headers = {
    host: `${hostname}:${port}`,
    authorization: `Bearer ${s.token}`,
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': String(head.length + sentBytes * 10),
    ...options.headers,
  };
  socket.write(
    `POST ${path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n${head}`,
  );
  await new Promise<void>((resolve) => socket.write(new Uint8Array(sentBytes), () => resolve()));
  // Long enough for the server to start writing the file before the client goes.
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
}

/** A log destination that keeps every JSON line written to it, parsed, in `lines`. */
export function logLines(): { sink: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { sink, lines };
}
