import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppOptions, GalleyApp } from './app.js';
import { createApp } from './app.js';
import { answerClientError, answerExpectationFailed } from './http/client-error.js';

export interface StartOptions extends AppOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Use the address actually listened on as base URL and asset base URL (tests, port 0). */
  baseUrlFromListen?: boolean;
}

export interface RunningServer {
  /** `http://host:port` actually listened on. */
  url: string;
  port: number;
  app: GalleyApp;
  server: Server;
  /** Stops accepting, ends idle connections, waits for open requests, runs close hooks. */
  close(): Promise<void>;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const server = createServer();
  const host = options.host ?? options.config.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? options.config.port, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const config = options.baseUrlFromListen
    ? { ...options.config, port, baseUrl: url, assetBaseUrl: url }
    : { ...options.config, port };
  let galley: GalleyApp;
  try {
    galley = createApp({ ...options, config });
  } catch (error) {
    server.close();
    throw error;
  }
  server.on('request', galley.app);
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectationFailed);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    app: galley,
    server,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve, reject) => {
          server.close((err) => (err ? reject(err) : resolve()));
          server.closeIdleConnections();
        });
        await galley.close();
      })()),
  };
}
