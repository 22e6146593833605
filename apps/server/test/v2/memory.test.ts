// Uploads are streamed: a 100 MB blob must not grow the server's resident memory by 64 MB.
// The server runs in a child process so the measurement is its own.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';

const MB = 1_000_000;
let child: ChildProcess;
let url: string;
let token: string;

beforeAll(async () => {
  child = fork(new URL('./support/serve-child.ts', import.meta.url).pathname, [], {
    execArgv: ['--conditions=@galley/source', '--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  ({ url, token } = JSON.parse(line) as { url: string; token: string });
}, 60_000);

afterAll(async () => {
  child.send('stop');
  await once(child, 'exit');
});

async function ask(message: 'reset' | 'peak'): Promise<{ rss: number; peak: number }> {
  child.send(message);
  const [answer] = (await once(child, 'message')) as [{ rss: number; peak: number }];
  return answer;
}

/** Streams `size` bytes to POST /blobs from one reused 64 KiB chunk (nothing buffered here). */
function upload(size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v2/blobs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(size),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        chunk.writeUInt32BE(sent % 2 ** 32, 0); // the bytes vary, as real content does
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

it('keeps resident memory growth under 64 MB while a 100 MB blob uploads', async () => {
  expect((await upload(1 * MB)).status).toBe(201); // warm the code paths first
  const before = await ask('reset');
  const res = await upload(100 * MB);
  expect(res.status).toBe(201);
  expect(JSON.parse(res.body)).toMatchObject({ size: 100 * MB });
  const after = await ask('peak');
  const growth = after.peak - before.rss;
  console.log(`resident memory growth during a 100 MB upload: ${(growth / MB).toFixed(1)} MB`);
  expect(growth).toBeLessThan(64 * MB);
}, 120_000);
