// `galley pull` against a real server on loopback: the saved folder and confirmed versions,
// verified by SHA-256, and every way the service or the options can refuse.
import { execFileSync } from 'node:child_process';
import { lstat, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '@galley/store/ids';
import type { v1 } from '@galley/core';
import { directoryOf, galley, oneErrorLine, removeDirectory } from './support/galley.js';
import { createProject, fakeService, screenSession, startServer } from './support/server.js';
import type { TestServer } from './support/server.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

describe('galley pull', () => {
  let s: TestServer;
  let project: v1.Project;
  let confirmed: v1.Confirmation;
  let out: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    s = await startServer();
    project = await createProject(s);
    confirmed = await (await screenSession(s)).confirm(project.id, 'first');
    out = await directoryOf({});
    env = { GALLEY_SERVER: s.url, GALLEY_TOKEN: s.token };
  });
  afterAll(async () => {
    await s.close();
    await removeDirectory(out);
  });

  it('downloads the saved folder, the bytes the service exports', async () => {
    const target = join(out, 'saved.zip');
    const run = await galley(['pull', project.id, '-o', target], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const written = new Uint8Array(await readFile(target));
    const served = await fetch(`${s.url}/api/v1/projects/${project.id}/folder`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    expect(written).toEqual(new Uint8Array(await served.arrayBuffer()));
    expect(run.stdout).toBe(`${target}: ${written.length} bytes, sha256 ${sha256Hex(written)}\n`);
  });

  it('downloads a confirmed version by its number, named as the service names it', async () => {
    const cwd = await directoryOf({});
    try {
      const run = await galley(
        ['pull', project.id, '--version', '1', '--server', s.url, '--token', s.token],
        { cwd },
      );
      expect(run.code).toBe(0);
      expect(await readdir(cwd)).toEqual([`${project.id}-v1.zip`]);
      const bytes = new Uint8Array(await readFile(join(cwd, `${project.id}-v1.zip`)));
      expect(sha256Hex(bytes)).toBe(confirmed.sha256);
    } finally {
      await removeDirectory(cwd);
    }
  });

  it('refusals by the service: exit 1 with one line, nothing written', async () => {
    const target = join(out, 'never.zip');
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['--version', '7'], env, /confirmed version 7 of prj_\S+ was not found.*\(404\)/],
      [[], { ...env, GALLEY_TOKEN: 'glly_revoked-or-made-up' }, /refused the token \(401\)/],
    ];
    for (const [extra, runEnv, reason] of cases) {
      const run = await galley(['pull', project.id, '-o', target, ...extra], { env: runEnv });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(reason);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    const unknown = await galley(['pull', 'prj_nope', '-o', target], { env });
    expect(unknown.stderr).toMatch(/project prj_nope was not found/);
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('an unreachable service: exit 1, saying which', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const run = await galley(['pull', project.id, '-o', join(out, 'x.zip')], {
      env: { ...env, GALLEY_SERVER: `http://127.0.0.1:${closed}` },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`galley: cannot reach http://127.0.0.1:${closed}: ECONNREFUSED\n`);
  });

  it('unusable options: exit 2 (no service, no token, a bad version, no such folder)', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [[], {}, /no service given: pass --server URL or set GALLEY_SERVER/],
      [[], { GALLEY_SERVER: s.url }, /no API token given/],
      [['--server', 'ftp://x'], { GALLEY_TOKEN: s.token }, /is not an http\(s\) URL/],
      [['--version', '0'], env, /a whole number from 1/],
      [['-o', '/nonexistent/dir/x.zip'], env, /\/nonexistent\/dir: no such folder/],
      [['--server', ''], env, /--server is empty/],
      [['--token', ''], env, /--token is empty/],
      // Beyond an exact JavaScript number it would be rounded and another version asked for.
      [['--version', '99999999999999999999'], env, /a whole number from 1 to 9007199254740991/],
      [['--token', 'glly_\u0001x'], env, /^galley: the token is unusable: it holds characters/],
      [['--token', 'glly_é'], env, /^galley: the token is unusable: it holds characters/],
      [
        ['--server', `${s.url}/api/v1`],
        env,
        /names an interface of the service; give the service's own address \(http:/,
      ],
      [
        ['--server', s.url.replace('http://', 'http://u:p@')],
        env,
        /^galley: --server may not carry credentials \(user:password@\)/,
      ],
      [[], { ...env, GALLEY_SERVER: `${s.url}/?x=1` }, /^galley: GALLEY_SERVER .* query/],
    ];
    for (const [extra, runEnv, reason] of cases) {
      const run = await galley(['pull', project.id, ...extra], { env: runEnv });
      expect([extra, run.code]).toEqual([extra, 2]);
      expect(run.stderr).toMatch(reason);
      expect(oneErrorLine(run)).toBe(true);
    }
    // An id that is empty, or that could leave its folder as the file's name, is never sent.
    for (const [id, line] of [
      ['', 'galley: the project id is empty; give the project, prj_…\n'],
      ['../x', 'galley: ../x is not a project id (prj_…)\n'],
      ['a/b', 'galley: a/b is not a project id (prj_…)\n'],
    ]) {
      const cwd = await directoryOf({});
      const run = await galley(['pull', id!], { env, cwd });
      expect([id, run]).toEqual([id, { code: 2, stdout: '', stderr: line }]);
      expect(await readdir(cwd)).toEqual([]);
      await removeDirectory(cwd);
    }
  });

  it('-o naming a pipe is refused before the download (exit 2), and the pipe stays', async () => {
    const fifo = join(out, 'pipe.zip');
    execFileSync('mkfifo', [fifo]);
    try {
      const run = await galley(['pull', project.id, '-o', fifo], { env });
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: `galley: -o ${fifo} is not a regular file (a device, pipe or socket); give a file name\n`,
      });
      expect((await lstat(fifo)).isFIFO()).toBe(true);
    } finally {
      await rm(fifo);
    }
  });

  it('429 names the wait the service asks for (Retry-After), else a minute', async () => {
    for (const [headers, line] of [
      [{ 'retry-after': '7' }, 'galley: too many requests (429); wait 7 s and try again\n'],
      [{}, 'galley: too many requests (429); wait a minute and try again\n'],
    ] as const) {
      const fake = await fakeService((_req, res) =>
        res
          .writeHead(429, { 'content-type': 'application/problem+json', ...headers })
          .end('{"status":429,"code":"rate_limited","detail":"slow down"}'),
      );
      try {
        const run = await galley(['pull', project.id, '-o', join(out, 'busy.zip')], {
          env: { ...env, GALLEY_SERVER: fake.url },
        });
        expect(run).toEqual({ code: 1, stdout: '', stderr: line });
      } finally {
        await fake.close();
      }
    }
  });

  it('an unusable -o is refused before the download (exit 2): a folder, an empty name', async () => {
    const before = await readdir(out);
    const folder = await galley(['pull', project.id, '-o', out], { env });
    expect(folder).toMatchObject({ code: 2, stdout: '' });
    expect(folder.stderr).toBe(
      `galley: -o ${out} is a folder; give a file name, e.g. ${join(out, 'folder.zip')}\n`,
    );
    const empty = await galley(['pull', project.id, '-o', ''], { env });
    expect(empty).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'galley: -o is empty; give the file to write\n',
    });
    expect(await readdir(out)).toEqual(before);
  });

  it('an answer it cannot verify is not written (exit 1): no X-Content-SHA256, not a ZIP', async () => {
    const saved = await fetch(`${s.url}/api/v1/projects/${project.id}/folder`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    const bytes = Buffer.from(await saved.arrayBuffer());
    const answers: Array<[Record<string, string>, number, RegExp]> = [
      [
        { 'content-type': 'application/zip' },
        200,
        /^galley: the service sent project prj_\S+ without X-Content-SHA256, so it cannot be verified; nothing written\n$/,
      ],
      [
        { 'content-type': 'application/octet-stream', 'x-content-sha256': sha256Hex(bytes) },
        200,
        /^galley: the service answered 200 application\/octet-stream for project prj_\S+, not 200 application\/zip; nothing written\n$/,
      ],
      [
        { 'content-type': 'application/zip', 'x-content-sha256': sha256Hex(bytes) },
        203,
        /^galley: the service answered 203 application\/zip for project prj_\S+, not 200 application\/zip; nothing written\n$/,
      ],
    ];
    for (const [headers, status, reason] of answers) {
      const fake = await fakeService((_req, res) => res.writeHead(status, headers).end(bytes));
      try {
        const target = join(out, 'unverified.zip');
        const run = await galley(['pull', project.id, '-o', target], {
          env: { ...env, GALLEY_SERVER: fake.url },
        });
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(reason);
        await expect(readFile(target)).rejects.toThrow(/ENOENT/);
      } finally {
        await fake.close();
      }
    }
  });

  it('a refusal in odd words (a proxy page, line breaks, no fields) is still one line', async () => {
    const answers: Array<[number, Record<string, string>, string, RegExp]> = [
      [
        502,
        { 'content-type': 'text/html' },
        `<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>${'x'.repeat(500)}</body>\r\n</html>\r\n`,
        /^galley: 502 http_error: <html> <head><title>502 Bad Gateway<\/title><\/head> <body>x+…\n$/,
      ],
      [
        403,
        { 'content-type': 'application/problem+json' },
        JSON.stringify({ status: 403, code: 'forbidden', detail: 'line one\nline two' }),
        /^galley: not allowed \(403 forbidden\): line one line two\n$/,
      ],
      [
        500,
        { 'content-type': 'application/problem+json' },
        JSON.stringify({ status: 500, title: 'Broken' }),
        /^galley: 500 error: Broken\n$/,
      ],
    ];
    for (const [status, headers, body, line] of answers) {
      const fake = await fakeService((_req, res) => res.writeHead(status, headers).end(body));
      try {
        const run = await galley(['pull', project.id, '-o', join(out, 'odd.zip')], {
          env: { ...env, GALLEY_SERVER: fake.url },
        });
        expect(run.code).toBe(1);
        expect(oneErrorLine(run)).toBe(true);
        expect(run.stderr).toMatch(line);
      } finally {
        await fake.close();
      }
    }
  });

  it('a service that accepts but never answers: a timeout, exit 1, nothing written', async () => {
    const silent = await fakeService(() => undefined); // takes the request, never answers
    const stalled = await fakeService((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'x-content-sha256': 'a'.repeat(64) });
      res.write('PK'); // then nothing more
    });
    try {
      for (const fake of [silent, stalled]) {
        const target = join(out, 'late.zip');
        const started = Date.now();
        const run = await galley(['pull', project.id, '-o', target, '--timeout', '1'], {
          env: { ...env, GALLEY_SERVER: fake.url },
        });
        expect(run.code).toBe(1);
        expect(run.stderr).toBe(
          `galley: no answer from ${fake.url} for 1 s (project ${project.id}); gave up (see --timeout)\n`,
        );
        expect(Date.now() - started).toBeLessThan(15_000);
        await expect(readFile(target)).rejects.toThrow(/ENOENT/);
      }
    } finally {
      await silent.close();
      await stalled.close();
    }
  });

  it('the timeout counts time without progress: a slow download that keeps moving succeeds', async () => {
    const saved = await fetch(`${s.url}/api/v1/projects/${project.id}/folder`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    const bytes = Buffer.from(await saved.arrayBuffer());
    const slow = await fakeService((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/zip',
        'x-content-sha256': sha256Hex(bytes),
        'content-length': String(bytes.length),
      });
      // Six slices, 0.4 s apart: 2 s in all, never 1 s without a byte.
      const step = Math.ceil(bytes.length / 6);
      let at = 0;
      const next = () => {
        res.write(bytes.subarray(at, at + step));
        at += step;
        if (at >= bytes.length) res.end();
        else setTimeout(next, 400);
      };
      setTimeout(next, 400);
    });
    try {
      const target = join(out, 'slow.zip');
      const run = await galley(['pull', project.id, '-o', target, '--timeout', '1'], {
        env: { ...env, GALLEY_SERVER: slow.url },
      });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(new Uint8Array(await readFile(target))).toEqual(new Uint8Array(bytes));
    } finally {
      await slow.close();
    }
  });
});
