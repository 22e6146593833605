// A blank page under the strict policy the screen uses (scripts from this origin only, no eval),
// which loads the built library; a listener script records every policy violation.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const STRICT_CSP =
  "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'";

const listener = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI);
});`;

const blank = `<!doctype html><html><head><meta charset="utf-8"><title>bundle</title>
<script src="/listener.js"></script><script src="/galley.min.js"></script></head><body></body></html>`;

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

export async function servePage(dist: string): Promise<PageServer> {
  const server = createServer((req, res) => {
    void (async () => {
      res.setHeader('Content-Security-Policy', STRICT_CSP);
      if (req.url === '/') res.setHeader('Content-Type', 'text/html; charset=utf-8').end(blank);
      else if (req.url === '/listener.js')
        res.setHeader('Content-Type', 'text/javascript').end(listener);
      else if (req.url === '/galley.min.js')
        res
          .setHeader('Content-Type', 'text/javascript')
          .end(await readFile(join(dist, 'galley.min.js')));
      else if (req.url === '/favicon.ico') res.writeHead(204).end();
      else res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
