// The request log: one line per request at the right level, with no credential in it.
import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@galley/server';
import { cutOffUpload, logLines, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

const { sink, lines } = logLines();

afterAll(() => sink.destroy());

async function loggedFor(
  level: string,
  requests: (s: TestServer) => Promise<void>,
  msg = 'request completed',
) {
  lines.length = 0;
  const s = await startTestServer({}, undefined, createLogger(level, sink));
  try {
    await requests(s);
    // The line is written when the answer has been sent: give the server a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return lines.filter((line) => line.msg === msg);
  } finally {
    await s.close();
  }
}

describe('request log', () => {
  let atInfo: Array<Record<string, unknown>>;
  let atWarn: Array<Record<string, unknown>>;
  const requests = async (s: TestServer) => {
    const auth = { authorization: `Bearer ${s.token}`, cookie: 'galley_session=secret-cookie' };
    await (await fetch(`${s.url}/api/v1/projects`, { headers: auth })).arrayBuffer();
    await (await fetch(`${s.url}/api/v1/nothing?x=1`, { headers: auth })).arrayBuffer();
  };
  beforeAll(async () => {
    atInfo = await loggedFor('info', requests);
    atWarn = await loggedFor('warn', requests);
  });

  it('writes one line per request with id, method, URL, status and duration', () => {
    expect(atInfo).toHaveLength(2);
    expect(atInfo[0]).toMatchObject({ level: 30, method: 'GET', url: '/api/v1/projects' });
    expect(atInfo[0]!.status).toBe(200);
    expect(atInfo[0]!.reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(atInfo[0]!.responseTime).toBeGreaterThanOrEqual(0);
    expect(atInfo[1]).toMatchObject({ level: 40, status: 404, url: '/api/v1/nothing?x=1' });
  });

  it('keeps only 4xx and 5xx at level warn', () => {
    expect(atWarn.map((line) => line.status)).toEqual([404]);
  });

  it('never logs a credential', () => {
    const text = JSON.stringify(atInfo);
    expect(text).not.toContain('Bearer');
    expect(text).not.toContain('glly_');
    expect(text).not.toContain('secret-cookie');
  });
});

describe('a client gone before its answer', () => {
  it('is one warning line without a status, never an error', async () => {
    const upload = (s: TestServer) =>
      cutOffUpload(
        s,
        '/api/v1/projects/folder',
        { field: 'zip', headers: { 'x-editor-client': 'gone' } },
        64 * 1024,
      );
    const aborted = await loggedFor('info', upload, 'request aborted');
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ level: 40, method: 'POST', status: null });
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

const noFullDevice = existsSync('/dev/full') ? null : 'there is no /dev/full here';
if (noFullDevice) console.warn(`skipped: a log that cannot be written: ${noFullDevice}`);

describe.skipIf(!!noFullDevice)('a log that cannot be written (a full disk)', () => {
  it('costs the lines, not the process, and says so once on standard error', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=@galley/source', '--import', 'tsx', 'test/platform/support/log-lines.ts'],
      { stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    // A logger stuck on the full device never ends: stop it rather than leave it running.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise((resolve) => child.on('close', resolve));
    clearTimeout(stuck);
    expect({ code, stderr }).toEqual({
      code: 0,
      stderr: 'galley: the log cannot be written (ENOSPC); requests go on without it\ndone\n',
    });
  });
});
