// A stand-in for the internet, on loopback: an HTTP proxy that answers plain requests itself and
// CONNECT tunnels with its own HTTPS server (a throwaway certificate for the hosts asked for,
// trusted by the `galley` process through NODE_EXTRA_CA_CERTS). `galley convert --vendor` is
// pointed at it through HTTP_PROXY/HTTPS_PROXY, so it fetches the very URLs a page names
// (https://fonts.googleapis.com/…) and nothing leaves the machine.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Answer {
  readonly status?: number;
  readonly type?: string;
  readonly body?: string | Uint8Array;
  /** Milliseconds to wait before answering (a timeout test). */
  readonly delay?: number;
}

export interface Cdn {
  /** `http://127.0.0.1:PORT`: the proxy, for HTTP_PROXY and HTTPS_PROXY. */
  readonly proxy: string;
  /** The certificate file, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  /** Every URL asked for, in order. */
  readonly requests: string[];
  /** The environment that sends `galley` through the proxy, bypassing it for `noProxy`. */
  env(noProxy?: string): Record<string, string>;
  close(): Promise<void>;
}

/** Why the HTTPS stand-in cannot run here (it needs `openssl` for its certificate). */
export const noOpenssl = existsSync('/usr/bin/openssl')
  ? undefined
  : '/usr/bin/openssl is missing, so no certificate can be made for the local HTTPS stand-in';

/** Starts the proxy; `answer` gets each absolute URL (`https://host/path?query`). */
export async function startCdn(
  hosts: readonly string[],
  answer: (url: URL) => Answer,
): Promise<Cdn> {
  const dir = await mkdtemp(join(tmpdir(), 'galley-cdn-'));
  const keyFile = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  const names = ['localhost', ...hosts].map((host) => `DNS:${host}`).join(',');
  // An EC key: made at once, where an RSA one takes seconds on a loaded machine.
  execFileSync(
    '/usr/bin/openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      caFile,
      '-days',
      '1',
      '-subj',
      '/CN=galley test CDN',
      '-addext',
      `subjectAltName=${names}`,
    ],
    { stdio: 'ignore' },
  );
  const requests: string[] = [];
  const handle = (url: URL, res: ServerResponse) => {
    requests.push(url.href);
    const { status = 200, type = 'application/octet-stream', body = '', delay = 0 } = answer(url);
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': type }).end(body);
    }, delay);
  };
  const tls = createHttpsServer(
    { key: await readFile(keyFile), cert: await readFile(caFile) },
    (req: IncomingMessage, res) => handle(new URL(`https://${req.headers.host}${req.url}`), res),
  );
  // Plain HTTP tunnelled through CONNECT (as undici's proxy agent sends it) names only the path.
  const plain = createServer((req, res) =>
    handle(new URL(`http://${req.headers.host}${req.url}`), res),
  );
  // A plain request to a proxy names the whole URL (`GET http://host/path`).
  const proxy = createServer((req, res) => handle(new URL(req.url ?? '/'), res));
  proxy.on('connect', (req, socket, head) => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    (req.url?.endsWith(':443') ? tls : plain).emit('connection', socket);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    proxy: url,
    caFile,
    requests,
    // Both spellings: undici reads the lower-case one first, and an empty value means none.
    env: (noProxy = '') => ({
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      NO_PROXY: noProxy,
      http_proxy: url,
      https_proxy: url,
      no_proxy: noProxy,
      NODE_EXTRA_CA_CERTS: caFile,
    }),
    close: async () => {
      proxy.closeAllConnections();
      tls.closeAllConnections();
      plain.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
