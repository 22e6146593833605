// The real `galley` command, spawned from its sources (no build needed), against a real data folder.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(repo, 'apps/cli/src/bin.ts');
const nodeArgs = ['--import', 'tsx', '--conditions=@galley/source', bin];
const env = { ...process.env, GALLEY_LOG_LEVEL: 'silent', GALLEY_DATABASE_URL: '' };

function galley(
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], { cwd: repo, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Serving {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  url: string;
}

function serve(data: string): Promise<Serving> {
  const child = spawn(process.execPath, [...nodeArgs, 'serve', '--port', '0', '--data', data], {
    cwd: repo,
    env,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 20_000);
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, output: () => output, url });
      }
    });
    child.on('exit', () => reject(new Error(`serve exited: ${output}`)));
  });
}

function stop(
  child: ChildProcessWithoutNullStreams,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('galley serve and the office commands', () => {
  let data: string;
  let server: Serving;
  beforeAll(async () => {
    data = await mkdtemp(join(tmpdir(), 'galley-cli-'));
    server = await serve(data);
  });
  afterAll(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null)
      await stop(server.child);
    await rm(data, { recursive: true, force: true });
  });

  it('prints the office account, a one-time password and a token on first start', async () => {
    const out = server.output();
    const email = /e-mail:\s+(\S+)/.exec(out)?.[1];
    const password = /password:\s+(\S+)/.exec(out)?.[1];
    const token = /API token:\s+(glly_[A-Za-z0-9_-]{43})\b/.exec(out)?.[1];
    expect(email).toBe('office@galley.local');
    expect(password).toMatch(/^\S{12,}$/);
    expect(token).toBeDefined();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // The token authenticates (an unknown route then answers 404, not 401).
    expect((await fetch(`${server.url}/api/v1/x`, { headers: bearer(token!) })).status).toBe(404);
    const login = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
  });

  it('adds accounts and issues, lists and revokes tokens while the server runs', async () => {
    const added = await galley(
      'accounts',
      'add',
      '--data',
      data,
      '--email',
      'Ben@Example.org',
      '--name',
      'Ben',
    );
    expect(added.code).toBe(0);
    const account = JSON.parse(added.stdout) as Record<string, unknown>;
    expect(account).toEqual({
      account_number: 1002,
      email: 'ben@example.org',
      password: expect.any(String) as string,
    });

    const withPassword = await galley(
      'accounts',
      'add',
      '--data',
      data,
      '--email',
      'c@example.org',
      '--name',
      'C',
      '--password',
      'secret-1',
    );
    expect(JSON.parse(withPassword.stdout)).toEqual({
      account_number: 1003,
      email: 'c@example.org',
    });
    const taken = await galley(
      'accounts',
      'add',
      '--data',
      data,
      '--email',
      'c@example.org',
      '--name',
      'C',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/exists/);
    expect(taken.stdout).toBe('');

    const issued = await galley(
      'tokens',
      'issue',
      '--data',
      data,
      '--email',
      'ben@example.org',
      '--days',
      '30',
    );
    expect(issued.code).toBe(0);
    expect(issued.stdout).toMatch(/^glly_[A-Za-z0-9_-]{43}\n$/);
    const token = issued.stdout.trim();
    expect((await fetch(`${server.url}/api/v1/x`, { headers: bearer(token) })).status).toBe(404);

    const listed = await galley('tokens', 'list', '--data', data, '--email', 'ben@example.org');
    const tokens = JSON.parse(listed.stdout) as Array<{
      prefix: string;
      last_used_at: string | null;
    }>;
    expect(tokens).toHaveLength(1);
    expect(token.startsWith(tokens[0]!.prefix)).toBe(true);
    expect(tokens[0]!.last_used_at).not.toBeNull();
    expect(listed.stdout).not.toContain(token);

    const revoked = await galley(
      'tokens',
      'revoke',
      '--data',
      data,
      '--email',
      'ben@example.org',
      tokens[0]!.prefix,
    );
    expect(revoked.code).toBe(0);
    expect((await fetch(`${server.url}/api/v1/x`, { headers: bearer(token) })).status).toBe(401);
    const again = await galley(
      'tokens',
      'revoke',
      '--data',
      data,
      '--email',
      'ben@example.org',
      tokens[0]!.prefix,
    );
    expect(again.code).toBe(1);

    const unknown = await galley(
      'tokens',
      'issue',
      '--data',
      data,
      '--email',
      'nobody@example.org',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no account/);

    // A token is valid 90 days at most: --days 90 is the longest, anything else a clear error.
    const longest = await galley(
      'tokens',
      'issue',
      '--data',
      data,
      '--email',
      'ben@example.org',
      '--days',
      '90',
    );
    expect(longest.code).toBe(0);
    expect(longest.stdout).toMatch(/^glly_[A-Za-z0-9_-]{43}\n$/);
    for (const days of ['91', '365', '0', '1.5', 'ninety']) {
      const refused = await galley(
        'tokens',
        'issue',
        '--data',
        data,
        '--email',
        'ben@example.org',
        '--days',
        days,
      );
      expect([days, refused.code]).toEqual([days, 1]);
      expect(refused.stderr).toMatch(/--days.*1 to 90 days/s);
      expect(refused.stdout).toBe('');
    }
    const stillOne = await galley('tokens', 'list', '--data', data, '--email', 'ben@example.org');
    expect((JSON.parse(stillOne.stdout) as unknown[]).length).toBe(2);
  });

  it('stops gracefully on SIGTERM and prints no credentials on the next start', async () => {
    expect(await stop(server.child)).toBe(0);
    server = await serve(data);
    expect(server.output()).not.toMatch(/password|API token/);
    expect(await stop(server.child, 'SIGINT')).toBe(0);
  });
});
