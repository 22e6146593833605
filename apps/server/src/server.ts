import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AppOptions, GalleyApp } from './app.js';
import { createApp } from './app.js';
import { answerClientError } from './http/client-error.js';
import { expressMessages } from './http/express-messages.js';

export interface StartOptions extends AppOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Use the address actually listened on as base URL and asset base URL (tests, port 0). */
  baseUrlFromListen?: boolean;
  /** Milliseconds a connection may go without traffic either way before it is closed (2 min). */
  idleTimeoutMs?: number;
}

/**
 * A connection with no traffic either way for this long is closed: a client that stopped
 * reading an answer (a big folder download) would otherwise hold its bytes in memory for ever.
 * Longer than any request takes to be worked on without a byte moving.
 */
const IDLE_TIMEOUT_MS = 120_000;
/**
 * An idle keep-alive connection is kept this long, past the idle timeouts of the clients and
 * load balancers in front (undici follows the server's `Keep-Alive: timeout` hint; an AWS load
 * balancer waits 60 s), so that they, not the server, end it: a server that closes a connection
 * just as a request is sent on it makes that request fail with ECONNRESET. Node's default is 5 s.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface RunningServer {
  /** `http://host:port` actually listened on. */
  url: string;
  port: number;
  app: GalleyApp;
  server: Server;
  /**
   * Stops accepting, ends idle connections and event streams, lets open requests finish (their
   * answers close their connections; cut after 20 s), runs close hooks.
   */
  close(): Promise<void>;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const messages = expressMessages();
  // A request without Host is refused by the app, as a problem (refuseBadRequestHead).
  const server = createServer({ ...messages.serverOptions, requireHostHeader: false });
  server.timeout = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
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
    messages.adopt(galley.app);
  } catch (error) {
    server.close();
    throw error;
  }
  const stopping = drainOnClose(server);
  server.on('request', galley.app);
  server.on('clientError', answerClientError);
  // A request with an `Expect` other than 100-continue: the app refuses it (417) like any other.
  server.on('checkExpectation', galley.app);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    app: galley,
    server,
    close: () =>
      (closing ??= (async () => {
        const drained = stopping();
        // Answers that never end by themselves (event streams) end now, so the drain can.
        await galley.stop();
        await drained;
        await galley.close();
      })()),
  };
}

/** How long open requests get to finish once the server stops; then their connections close. */
const SHUTDOWN_GRACE_MS = 20_000;

/**
 * Stopping that ends: new connections are refused, answers from then on carry `Connection: close`
 * and each connection closes once its answer is out, so a client that keeps its kept-alive
 * connection busy cannot hold the stop open (Node's `close` waits for every connection to go
 * idle). Whatever is still open after SHUTDOWN_GRACE_MS is cut. Returns the function that stops.
 */
function drainOnClose(server: Server): () => Promise<void> {
  // Connections, not requests, are tracked: a request costs only the `stopping` test below.
  const connections = new Set<Socket>();
  let stopping = false;
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', closeIdleSoon);
  };
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping) closeAfter(res);
  });
  return () =>
    new Promise<void>((resolve, reject) => {
      stopping = true;
      for (const socket of connections) {
        // The answer in progress on the connection (Node keeps it there), if any.
        const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
        if (res) closeAfter(res);
      }
      const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      server.close((err) => {
        clearTimeout(cut);
        if (err) reject(err);
        else resolve();
      });
      server.closeIdleConnections();
    });
}
