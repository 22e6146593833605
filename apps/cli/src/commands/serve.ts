import { createServer } from 'node:net';
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { OfficeCredentials } from '@galley/server';
import type { CliIo } from '../io.js';
import { CommandFailure, InputError } from '../lib/exit.js';
import { makeFolder, writeReason } from '../lib/files.js';
import { wholeNumberOption } from '../lib/number-option.js';
import { openStoreExplained, storeText } from '../lib/store-text.js';
import { dataOption, storeOptionsFor, undeliveredFailure } from '../store-options.js';
import { serveAsWorker, startService } from './serve-workers.js';

/** Why `value` cannot be the service's public URL, or undefined when it can. */
function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (!/^https?:\/\//i.test(value) || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return 'is not an http(s) URL';
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    return 'may not carry a query, a fragment or credentials';
  return undefined;
}

const example = 'e.g. https://galley.example.org';

/** `--base-url`: an absolute http(s) URL (origin, and a path prefix if any). */
function baseUrl(value: string): string {
  const problem = baseUrlProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(`it ${problem} (${example})`);
  return value;
}

/** The same rule for the variables: a clear line at start, before anything is made. */
function checkUrlVariables(env: CliIo['env']): void {
  for (const name of ['GALLEY_BASE_URL', 'GALLEY_ASSET_BASE_URL']) {
    const value = env[name];
    if (!value) continue; // empty counts as unset (docs/operations.md)
    const problem = baseUrlProblem(value);
    if (problem !== undefined)
      throw new InputError('invalid_option', `${name}=${value} ${problem} (${example})`);
  }
}

export function firstStartText(office: OfficeCredentials): string {
  return [
    'First start: the service office account was created. This is shown only once:',
    `  e-mail:    ${office.email}`,
    `  password:  ${office.password}`,
    `  API token: ${office.token}`,
  ].join('\n');
}

/** A failure to listen, in one line a person can act on. */
export function listenFailure(error: unknown, host: string, at: number): CommandFailure {
  const code = (error as { code?: unknown }).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${at}`;
  const reason =
    code === 'EADDRINUSE'
      ? 'the port is in use (EADDRINUSE); stop what uses it, or pick another --port'
      : code === 'EACCES'
        ? 'permission denied (EACCES); pick a port above 1023'
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? `no such address here (${code}); check GALLEY_HOST`
          : error instanceof Error
            ? error.message
            : String(error);
  return new CommandFailure('listen_failed', `cannot listen on ${where}: ${reason}`);
}

/**
 * Makes the data folder (the one thing `serve` may create), or says in one line why it cannot:
 * a data folder that cannot be made is an unusable setting (exit 2), as a bad port is.
 */
async function makeDataFolder(dataDir: string): Promise<void> {
  await makeFolder(dataDir).catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'ENOTDIR' ? 'a file is in the way; give a folder' : writeReason(error);
    throw new InputError('unreadable', `the data folder ${dataDir} cannot be made: ${reason}`);
  });
}

/**
 * Listens on `host:at` for a moment and lets go: a port in use is found before the data
 * folder is opened, so a failed start makes nothing and prints no credentials.
 */
async function probePort(host: string, at: number): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port: at, host, exclusive: true }, () => resolve());
  }).catch((error: unknown) => {
    throw listenFailure(error, host, at);
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** `galley serve`: both interfaces and the screen, until SIGINT or SIGTERM. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('start the service (settings: docs/operations.md)')
    .option(
      '--port <port>',
      'port to listen on (GALLEY_PORT, default 8080)',
      wholeNumberOption(0, 65535),
    )
    .option('--data <dir>', 'data folder (GALLEY_DATA_DIR, default ./galley-data)')
    .option('--base-url <url>', 'public URL of the service (GALLEY_BASE_URL)', baseUrl)
    .option(
      '--workers <n>',
      'server processes (GALLEY_WORKERS, default one per core; 1: a single process)',
      wholeNumberOption(1, 256),
    )
    .action(async (opts: { port?: number; data?: string; baseUrl?: string; workers?: number }) => {
      const data = dataOption(opts.data);
      checkUrlVariables(io.env);
      // Loaded here, not at the top: the other commands start without the server and its store.
      const { bootstrapOffice, loadConfig } = await import('@galley/server');
      const { systemClock } = await import('@galley/store');
      const config = loadConfig(io.env, {
        ...(opts.port !== undefined ? { port: opts.port } : {}),
        ...(data !== undefined ? { dataDir: data } : {}),
        ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl.replace(/\/+$/, '') } : {}),
        ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
      });
      const storeOptions = {
        ...(await storeOptionsFor(config.dataDir, io.env)),
        clock: systemClock,
      };
      const explicitBaseUrl = opts.baseUrl !== undefined || !!io.env.GALLEY_BASE_URL;
      const baseUrlFromListen = config.port === 0 && !explicitBaseUrl;
      const start = { config, storeOptions, baseUrlFromListen };
      // A worker of the cluster below: it serves, and the primary does everything else.
      if (await serveAsWorker(start)) return;
      // Port 0 picks a free port: nothing to find out beforehand.
      if (config.port !== 0) await probePort(config.host, config.port);
      await makeDataFolder(config.dataDir);
      // Opened (and migrated) here once, before any worker opens it.
      const store = await openStoreExplained(storeOptions);
      const service = await startService({ ...start, store }).catch(async (error: unknown) => {
        await store.close();
        // The port was taken between the probe and here (or refused): say so; else as it is.
        const syscall = (error as { syscall?: unknown }).syscall;
        throw syscall === 'listen' ? listenFailure(error, config.host, config.port) : error;
      });
      // Only now that it listens: a failed start leaves no office account whose password and
      // token were printed and then lost with the process.
      const office = await bootstrapOffice(store).catch(async (error: unknown) => {
        await service.stop();
        await store.close();
        throw error;
      });
      // The office's password and token exist nowhere else: when they cannot be written, the
      // account is not kept, and the next start that can write them makes it again.
      if (office) {
        await io.deliver(firstStartText(office)).catch(async (error: unknown) => {
          await service.stop();
          await store.accounts.delete(office.accountNumber);
          await store.close();
          throw undeliveredFailure(error, 'the office account was not kept');
        });
      }
      // Handlers go in before the listening line: whoever waits for that line may signal at once.
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) service.abort(); // a second signal: stop now
        stopping = true;
        // Logged, not printed: stdout holds the log's JSON lines once the service runs.
        service.logger.info({ signal }, 'stopping');
        void service
          .stop()
          .then(() => store.close())
          .then(() => process.exit(0))
          .catch((error: unknown) => {
            io.err(`galley: ${error instanceof Error ? error.message : String(error)}`);
            process.exit(1);
          });
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
      // The address clients use (the base URL: what `watch` and the screen's links are built
      // on), and where it listens when that differs (a proxy in front, localhost, a path).
      const base = baseUrlFromListen ? service.url : config.baseUrl;
      const listening = base === service.url ? '' : `, listening on ${service.url}`;
      const where = await storeText(storeOptions);
      io.out(`Galley is at ${base}${listening} (data: ${config.dataDir}, store: ${where})`);
    });
}
