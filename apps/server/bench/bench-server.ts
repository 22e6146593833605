// The whole service for a benchmark: a SQLite store in `dataDir`, one account and its token,
// request logs at level warn (the figures compare request handling, not log output) and a rate
// limit no benchmark reaches. Shared by the v1 and v2 benchmarks' server processes.
import { openStore, systemClock } from '@galley/store';
import { loadConfig, startServer } from '../src/index.js';
import type { ServerConfig } from '../src/index.js';

export interface BenchServer {
  url: string;
  token: string;
  stop(): Promise<void>;
}

export async function startBenchServer(
  dataDir: string,
  settings: Partial<ServerConfig> = {},
): Promise<BenchServer> {
  const store = await openStore({ kind: 'sqlite', dataDir });
  const created = await store.accounts.create({
    email: 'bench@example.org',
    name: 'Bench',
    password: 'pw',
  });
  if (!created.ok) throw new Error(created.code);
  const { token } = await store.tokens.issue({ accountNumber: created.account.accountNumber });
  const config = loadConfig(
    {},
    { dataDir, logLevel: 'warn', rateLimitPerMinute: 1_000_000_000, ...settings },
  );
  const server = await startServer({
    store,
    clock: systemClock,
    config,
    host: '127.0.0.1',
    port: 0,
    baseUrlFromListen: true,
  });
  return {
    url: server.url,
    token,
    stop: () => server.close().then(() => store.close()),
  };
}
