import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { OfficeCredentials } from '@galley/server';
import type { CliIo } from '../io.js';
import { storeOptionsFor } from '../store-options.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('0 to 65535');
  return n;
}

export function firstStartText(office: OfficeCredentials): string {
  return [
    'First start: the service office account was created. This is shown only once:',
    `  e-mail:    ${office.email}`,
    `  password:  ${office.password}`,
    `  API token: ${office.token}`,
  ].join('\n');
}

/** `galley serve`: both interfaces and the screen, until SIGINT or SIGTERM. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('start the service (settings: docs/operations.md)')
    .option('--port <port>', 'port to listen on (GALLEY_PORT, default 8080)', port)
    .option('--data <dir>', 'data folder (GALLEY_DATA_DIR, default ./galley-data)')
    .option('--base-url <url>', 'public URL of the service (GALLEY_BASE_URL)')
    .action(async (opts: { port?: number; data?: string; baseUrl?: string }) => {
      // Loaded here, not at the top: the other commands start without the server and its store.
      const { bootstrapOffice, loadConfig, startServer } = await import('@galley/server');
      const { openStore, systemClock } = await import('@galley/store');
      const config = loadConfig(io.env, {
        ...(opts.port !== undefined ? { port: opts.port } : {}),
        ...(opts.data !== undefined ? { dataDir: opts.data } : {}),
        ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
      });
      const clock = systemClock;
      const store = await openStore({ ...storeOptionsFor(config.dataDir, io.env), clock });
      const office = await bootstrapOffice(store);
      if (office) io.out(firstStartText(office));
      const explicitBaseUrl = opts.baseUrl !== undefined || !!io.env.GALLEY_BASE_URL;
      const running = await startServer({
        store,
        clock,
        config,
        baseUrlFromListen: config.port === 0 && !explicitBaseUrl,
      });
      // Handlers go in before the listening line: whoever waits for that line may signal at once.
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) process.exit(1); // a second signal: stop now
        stopping = true;
        io.out(`${signal}: stopping`);
        void running
          .close()
          .then(() => store.close())
          .then(() => process.exit(0))
          .catch((error: unknown) => {
            io.err(`galley: ${error instanceof Error ? error.message : String(error)}`);
            process.exit(1);
          });
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
      io.out(`Galley is listening on ${running.url} (data: ${config.dataDir})`);
    });
}
