// The real `galley` command, spawned from its sources (no build needed), against a real data folder.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeZip } from '@galley/core';
import { folderOf, serveProcess, validProject } from './support/galley.js';
import type { Serving } from './support/galley.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(repo, 'apps/cli/src/bin.ts');
const nodeArgs = ['--import', 'tsx', '--conditions=@galley/source', bin];
const env = { ...process.env, GALLEY_LOG_LEVEL: 'silent', GALLEY_DATABASE_URL: '' };

function galley(
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return galleyWith({}, ...args);
}

function galleyWith(
  extraEnv: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd: repo,
      env: { ...env, ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A port that was free a moment ago (for `serve --port N`, which then reports the base URL). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `galley …` with its stdout on a full disk (`> /dev/full`): its exit code and stderr. */
function galleyToFullDisk(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: repo,
    env,
    stdio: ['ignore', full, 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(full);
      resolve({ code, stderr });
    });
  });
}

/** One line `galley: …` on stderr and nothing on stdout. */
const oneLine = (run: { stdout: string; stderr: string }) =>
  run.stdout === '' && /^galley: [^\n]+\n$/.test(run.stderr);

describe('galley serve and the office commands', () => {
  let data: string;
  let server: Serving;
  beforeAll(async () => {
    data = await mkdtemp(join(tmpdir(), 'galley-cli-'));
    server = await serveProcess(data);
  });
  afterAll(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
    await rm(data, { recursive: true, force: true });
  });
  /** `galley tokens issue` for `email` on this data folder, with any further options. */
  const issue = (email: string, ...more: string[]) =>
    galley('tokens', 'issue', '--data', data, '--email', email, ...more);

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

    const issued = await issue('ben@example.org', '--days', '30');
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

    const unknown = await issue('nobody@example.org');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no account/);

    // A token is valid 90 days at most: --days 90 is the longest, anything else a clear error.
    const longest = await issue('ben@example.org', '--days', '90');
    expect(longest.code).toBe(0);
    expect(longest.stdout).toMatch(/^glly_[A-Za-z0-9_-]{43}\n$/);
    for (const days of ['91', '365', '0', '1.5', 'ninety']) {
      const refused = await issue('ben@example.org', '--days', days);
      expect([days, refused.code]).toEqual([days, 2]); // a usage error
      expect(refused.stderr).toMatch(
        /^galley: tokens issue: option '--days <n>'.* a whole number from 1 to 90\n$/,
      );
      expect(refused.stdout).toBe('');
    }
    const stillOne = await galley('tokens', 'list', '--data', data, '--email', 'ben@example.org');
    expect((JSON.parse(stillOne.stdout) as unknown[]).length).toBe(2);
  });

  it('refuses an unusable account as a usage error (exit 2), creating nothing', async () => {
    const cases: Array<[string[], string]> = [
      [['--email', 'not-an-email', '--name', 'D'], '--email not-an-email is not an e-mail address'],
      [['--email', 'd@', '--name', 'D'], '--email d@ is not an e-mail address'],
      [['--email', '', '--name', 'D'], '--email is empty'],
      [['--email', 'd@example.org', '--name', ''], '--name is empty'],
      [['--email', 'd@example.org', '--name', '   '], '--name is empty'],
      [
        ['--email', 'd@example.org', '--name', 'D', '--password', ''],
        '--password is empty; leave it out to have a password generated',
      ],
      [
        ['--email', 'd@example.org', '--name', 'D', '--password', 'x'.repeat(1025)],
        '--password is longer than 1024 characters; the sign-in takes no more',
      ],
    ];
    for (const [args, message] of cases) {
      const run = await galley('accounts', 'add', '--data', data, ...args);
      expect([args, run.code, run.stderr]).toEqual([args, 2, `galley: ${message}\n`]);
      expect(run.stdout).toBe('');
    }
    for (const email of ['not-an-email', 'd@example.org']) {
      const none = await galley('tokens', 'list', '--data', data, '--email', email);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/no account/);
    }
    // A name is kept trimmed; the longest password the sign-in accepts is accepted here.
    const added = await galley(
      'accounts',
      'add',
      '--data',
      data,
      '--email',
      ' D@Example.org ',
      '--name',
      '  Dora ',
      '--password',
      'p'.repeat(1024),
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ email: 'd@example.org' });
    const login = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'd@example.org', password: 'p'.repeat(1024) }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { account: { name: string } }).account.name).toBe('Dora');
  });

  it('a password or token that cannot be printed is not kept: the account is deleted, the token revoked', async () => {
    const lost = await galleyToFullDisk(
      'accounts',
      'add',
      '--data',
      data,
      '--email',
      'full@example.org',
      '--name',
      'Full',
    );
    expect(lost).toEqual({
      code: 1,
      stderr: 'galley: cannot write to standard output (ENOSPC); the account was not kept\n',
    });
    const none = await galley('tokens', 'list', '--data', data, '--email', 'full@example.org');
    expect(none.stderr).toBe('galley: no account with e-mail full@example.org\n');
    // So the same account can be made again, and this time its password is seen.
    const again = await galley(
      'accounts',
      'add',
      '--data',
      data,
      '--email',
      'full@example.org',
      '--name',
      'Full',
    );
    expect(again.code).toBe(0);

    const unseen = await galleyToFullDisk(
      'tokens',
      'issue',
      '--data',
      data,
      '--email',
      'full@example.org',
    );
    expect(unseen).toEqual({
      code: 1,
      stderr: 'galley: cannot write to standard output (ENOSPC); the token was revoked\n',
    });
    const listed = await galley('tokens', 'list', '--data', data, '--email', 'full@example.org');
    const tokens = JSON.parse(listed.stdout) as Array<{ revoked_at: string | null }>;
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.revoked_at).not.toBeNull();
  });

  it('empty values are usage mistakes (exit 2), never looked up or sent', async () => {
    const cases: Array<[string[], string]> = [
      [['tokens', 'issue', '--data', data, '--email', ''], '--email is empty'],
      [['tokens', 'list', '--data', data, '--email', ' '], '--email is empty'],
      [['tokens', 'revoke', '--data', data, '--email', '', 'x'], '--email is empty'],
      [
        ['tokens', 'revoke', '--data', data, '--email', 'ben@example.org', ''],
        'the token id or prefix is empty; give one `tokens list` shows',
      ],
      [
        ['tokens', 'list', '--email', 'ben@example.org', '--data', ''],
        '--data is empty; give the data folder',
      ],
      [
        ['tokens', 'issue', '--email', 'ben@example.org', '--data', ''],
        '--data is empty; give the data folder',
      ],
      [
        ['tokens', 'revoke', '--email', 'ben@example.org', 'x', '--data', ''],
        '--data is empty; give the data folder',
      ],
      [
        ['accounts', 'add', '--email', 'e@example.org', '--name', 'E', '--data', ''],
        '--data is empty; give the data folder',
      ],
      [['serve', '--port', '0', '--data', ''], '--data is empty; give the data folder'],
    ];
    for (const [args, message] of cases) {
      const run = await galley(...args);
      expect([args, run]).toEqual([args, { code: 2, stdout: '', stderr: `galley: ${message}\n` }]);
    }
  });

  it('refuses a data folder that does not exist or holds no store (exit 2), making none', async () => {
    const typo = `${data}-typo`;
    const empty = await mkdtemp(join(tmpdir(), 'galley-cli-empty-'));
    try {
      const commands = [
        ['tokens', 'list', '--email', 'ben@example.org'],
        ['tokens', 'issue', '--email', 'ben@example.org'],
        ['tokens', 'revoke', '--email', 'ben@example.org', 'glly_x'],
        ['accounts', 'add', '--email', 'e@example.org', '--name', 'E'],
      ];
      for (const command of commands) {
        const missing = await galley(...command, '--data', typo);
        expect([command, missing.code]).toEqual([command, 2]);
        expect(missing.stderr).toBe(
          `galley: no Galley data folder at ${typo} (it does not exist); give --data or GALLEY_DATA_DIR, or start \`galley serve\` there first\n`,
        );
        expect(oneLine(missing)).toBe(true);
        expect(existsSync(typo)).toBe(false);
        const hollow = await galley(...command, '--data', empty);
        expect(hollow.code).toBe(2);
        expect(hollow.stderr).toContain(
          `no Galley data folder at ${empty} (it holds no galley.sqlite)`,
        );
        expect(await readdir(empty)).toEqual([]);
      }
      // GALLEY_DATA_DIR is held to the same rule.
      const fromEnv = await galleyWith(
        { GALLEY_DATA_DIR: typo },
        'tokens',
        'list',
        '--email',
        'x@y.z',
      );
      expect(fromEnv.code).toBe(2);
      expect(existsSync(typo)).toBe(false);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('stops gracefully on SIGTERM and prints no credentials on the next start', async () => {
    expect(await server.stop()).toBe(0);
    server = await serveProcess(data);
    expect(server.output()).not.toMatch(/password|API token/);
    expect(await server.stop('SIGINT')).toBe(0);
  });
});

describe('galley serve: the address it prints, and starts that fail', () => {
  const made: string[] = [];
  const scratch = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'galley-cli-serve-'));
    made.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });

  it('prints the base URL clients use (localhost), and `watch` given it imports a version', async () => {
    const data = join(await scratch(), 'data');
    const port = await freePort();
    const server = await serveProcess(data, { port: String(port) });
    try {
      const out = server.output();
      // The base URL defaults to http://localhost:<port>; it listens on 127.0.0.1.
      expect(out).toContain(
        `Galley is at http://localhost:${port}, listening on http://127.0.0.1:${port} (data: ${data}, store: SQLite ${join(data, 'galley.sqlite')})`,
      );
      expect(server.url).toBe(`http://localhost:${port}`);
      const token = /API token:\s+(glly_\S+)/.exec(out)![1]!;
      const password = /password:\s+(\S+)/.exec(out)![1]!;
      const form = new FormData();
      form.set('zip', new Blob([writeZip(folderOf(validProject()))]), 'folder.zip');
      const created = await fetch(`${server.url}/api/v1/projects/folder`, {
        method: 'POST',
        headers: { ...bearer(token), 'x-editor-client': 'serve-test' },
        body: form,
      });
      expect(created.status).toBe(201);
      const project = (await created.json()) as { id: string };
      const login = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'office@galley.local', password }),
      });
      const { csrf_token } = (await login.json()) as { csrf_token: string };
      const confirmed = await fetch(`${server.url}/api/v1/projects/${project.id}/confirmations`, {
        method: 'POST',
        headers: {
          cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]!,
          'x-csrf-token': csrf_token,
          'content-type': 'application/json',
          'x-editor-client': 'serve-test-screen',
        },
        body: '{}',
      });
      expect(confirmed.status).toBe(201);
      const into = await scratch();
      const watched = await galleyWith(
        { GALLEY_SERVER: server.url, GALLEY_TOKEN: token },
        'watch',
        project.id,
        '--into',
        into,
        '--once',
      );
      expect(watched.stderr).toBe('');
      expect(watched.code).toBe(0);
      expect(watched.stdout).toMatch(/^v1: .*-v1\.zip \(sha256 [0-9a-f]{64}\)\n$/);
    } finally {
      await server.stop();
    }
  });

  it('a port in use: one line, exit 1, nothing created, no credentials; the next start gets them', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const data = join(await scratch(), 'data');
    try {
      const run = await galley('serve', '--port', String(port), '--data', data);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `galley: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); stop what uses it, or pick another --port\n`,
      );
      expect(run.stdout).toBe('');
      expect(existsSync(data)).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const server = await serveProcess(data, { port: String(port) });
    expect(server.output()).toMatch(/First start:[\s\S]*API token: glly_/);
    expect(await server.stop()).toBe(0);
  });

  it('a data folder that cannot be made is an unusable setting (exit 2), in one line', async () => {
    const dir = await scratch();
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    for (const data of [file, join(file, 'data')]) {
      const run = await galley('serve', '--port', '0', '--data', data);
      expect([data, run]).toEqual([
        data,
        {
          code: 2,
          stdout: '',
          stderr: `galley: the data folder ${data} cannot be made: a file is in the way; give a folder\n`,
        },
      ]);
    }
  });

  it('logs its stop as a JSON line, so stdout holds only the log once it runs', async () => {
    const data = join(await scratch(), 'data');
    await mkdir(data);
    const child = spawn(process.execPath, [...nodeArgs, 'serve', '--port', '0', '--data', data], {
      cwd: repo,
      env: { ...env, GALLEY_LOG_LEVEL: 'info' },
    });
    let stdout = '';
    const started = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('Galley is at')) resolve();
      }),
    );
    await started;
    const before = stdout.length;
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    expect(await closed).toBe(0); // 'close': stdout is read to its end
    const lines = stdout.slice(before).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ msg: 'stopping', signal: 'SIGINT' }),
    );
    expect(stdout).not.toContain('SIGINT: stopping');
  });

  it('a first start that cannot print the office credentials keeps no office account', async () => {
    const data = join(await scratch(), 'data');
    expect(await galleyToFullDisk('serve', '--port', '0', '--data', data)).toEqual({
      code: 1,
      stderr: 'galley: cannot write to standard output (ENOSPC); the office account was not kept\n',
    });
    // The next start that can print them makes the account, and shows them.
    const server = await serveProcess(data);
    expect(server.output()).toMatch(/First start:[\s\S]*API token: glly_/);
    expect(await server.stop()).toBe(0);
  });

  it('refuses an unusable setting (exit 2) in one line, making nothing', async () => {
    const data = join(await scratch(), 'data');
    for (const [name, value] of [
      ['GALLEY_TRUST_PROXY', 'banana'],
      ['GALLEY_PORT', 'abc'],
      ['GALLEY_SESSION_TTL_SECONDS', '5'],
    ] as const) {
      const run = await galleyWith({ [name]: value }, 'serve', '--port', '0', '--data', data);
      expect([name, run.code, run.stdout]).toEqual([name, 2, '']);
      expect(run.stderr).toMatch(new RegExp(`^galley: invalid settings: ${name}: `));
      expect(oneLine(run)).toBe(true);
      expect(existsSync(data)).toBe(false);
    }
  });

  it('refuses a base URL that is not an absolute http(s) URL (exit 2), making nothing', async () => {
    const data = join(await scratch(), 'data');
    for (const value of [
      'not-a-url',
      'ftp://galley.example.org',
      '/galley',
      '',
      'http://x.org/?a=1',
    ]) {
      const run = await galley('serve', '--port', '0', '--data', data, '--base-url', value);
      expect([value, run.code]).toEqual([value, 2]);
      expect(run.stderr).toMatch(
        /^galley: serve: option '--base-url <url>' argument .* is invalid\./,
      );
      expect(oneLine(run)).toBe(true);
    }
    const fromEnv = await galleyWith(
      { GALLEY_BASE_URL: 'not-a-url' },
      'serve',
      '--port',
      '0',
      '--data',
      data,
    );
    expect(fromEnv).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'galley: GALLEY_BASE_URL=not-a-url is not an absolute URL (e.g. https://galley.example.org)\n',
    });
    expect(existsSync(data)).toBe(false);
    await mkdir(data); // an explicit base URL is printed as given, with where it listens
    const server = await serveProcess(data, {
      args: ['--base-url', 'https://galley.example.org/'],
    });
    expect(server.output()).toMatch(
      /Galley is at https:\/\/galley\.example\.org, listening on http:\/\/127\.0\.0\.1:\d+ \(data: /,
    );
    expect(await server.stop()).toBe(0);
  });
});
