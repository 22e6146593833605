// Usage mistakes of every command: one line `galley: …` on stderr, nothing on stdout, exit 2,
// never commander's usage text; help asked for is printed and exits 0. And a stdout that cannot
// be written (a full disk, a reader gone) ends the run cleanly, never with a stack.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  directoryOf,
  galley,
  galleyArgs,
  oneErrorLine,
  removeDirectory,
  repo,
  validProject,
} from './support/galley.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

const env = { GALLEY_SERVER: 'http://127.0.0.1:9', GALLEY_TOKEN: 'glly_x' };

describe('usage mistakes: one line, exit 2', () => {
  const cases: Array<[string[], string]> = [
    [
      [],
      'galley: no command given; `galley` takes one of: init, serve, accounts, tokens, check, convert, pull, push, mcp, watch (see `galley --help`)',
    ],
    [['chek'], "galley: unknown command 'chek' (Did you mean check?)"],
    [['help', 'nope'], "galley: unknown command 'nope' (see `galley --help`)"],
    [['--nope'], "galley: unknown option '--nope'"],
    [
      ['accounts'],
      'galley: no command given; `galley accounts` takes one of: add (see `galley accounts --help`)',
    ],
    [
      ['tokens'],
      'galley: no command given; `galley tokens` takes one of: issue, list, revoke (see `galley tokens --help`)',
    ],
    [['tokens', 'nope'], "galley: tokens: unknown command 'nope'"],
    [
      ['accounts', 'add', '--name', 'X'],
      "galley: accounts add: required option '--email <email>' not specified",
    ],
    [['tokens', 'issue'], "galley: tokens issue: required option '--email <email>' not specified"],
    [
      ['tokens', 'revoke', '--email', 'a@example.org'],
      "galley: tokens revoke: missing required argument 'id-or-prefix'",
    ],
    [['serve', '--nope'], "galley: serve: unknown option '--nope'"],
    [
      ['serve', '--port', 'x'],
      "galley: serve: option '--port <port>' argument 'x' is invalid. a whole number from 0 to 65535",
    ],
    [
      ['serve', '--port', ''],
      "galley: serve: option '--port <port>' argument '' is invalid. a whole number from 0 to 65535",
    ],
    [['serve', '--port'], "galley: serve: option '--port <port>' argument missing"],
    [['check'], "galley: check: missing required argument 'folder'"],
    [
      ['check', 'a', 'b'],
      "galley: check: too many arguments for 'check'. Expected 1 argument but got 2.",
    ],
    [['convert', 'site'], "galley: convert: required option '-o, --output <file>' not specified"],
    // A missing argument is said before a missing required option: it comes first on the line.
    [['convert'], "galley: convert: missing required argument 'site'"],
    [['watch'], "galley: watch: missing required argument 'project-id'"],
    [['pull'], "galley: pull: missing required argument 'project-id'"],
    [
      ['pull', 'prj_x', '--version', 'two'],
      "galley: pull: option '--version <n>' argument 'two' is invalid. a whole number from 1 to 9007199254740991",
    ],
    [
      ['pull', 'prj_x', '--timeout', '0'],
      "galley: pull: option '--timeout <seconds>' argument '0' is invalid. a whole number from 1 to 3600",
    ],
    // Whole numbers in decimal digits only: no hexadecimal, exponent, spaces or fraction.
    ...(['0x2', '1e1', '2.0'] as const).map((value): [string[], string] => [
      ['pull', 'prj_x', '--version', value],
      `galley: pull: option '--version <n>' argument '${value}' is invalid. a whole number from 1 to 9007199254740991`,
    ]),
    ...(['0x10', '1e3', ' 5', '1.5', ''] as const).map((value): [string[], string] => [
      ['pull', 'prj_x', '--timeout', value],
      `galley: pull: option '--timeout <seconds>' argument '${value}' is invalid. a whole number from 1 to 3600`,
    ]),
    [
      ['tokens', 'issue', '--days', '1e1'],
      "galley: tokens issue: option '--days <n>' argument '1e1' is invalid. a whole number from 1 to 90",
    ],
    [
      ['serve', '--port', ' 80'],
      "galley: serve: option '--port <port>' argument ' 80' is invalid. a whole number from 0 to 65535",
    ],
    [
      ['watch', 'prj_x', '--into', '.', '--interval', '0x10'],
      "galley: watch: option '--interval <seconds>' argument '0x10' is invalid. seconds, more than 0 and at most 86400",
    ],
    [['push', 'prj_x'], "galley: push: missing required argument 'folder'"],
    [['watch', 'prj_x'], "galley: watch: required option '--into <dir>' not specified"],
    // An empty value is a mistake wherever it is given, never a path or an id looked up.
    [['check', ''], 'galley: the path is empty; give a ZIP or a directory'],
    [['convert', '', '-o', 'x.zip'], 'galley: the path is empty; give a ZIP or a directory'],
    [['push', 'prj_x', ''], 'galley: the path is empty; give a ZIP or a directory'],
    [['pull', ''], 'galley: the project id is empty; give the project, prj_…'],
    [['push', '', '.'], 'galley: the project id is empty; give the project, prj_…'],
    [
      ['watch', '', '--into', '.', '--once'],
      'galley: the project id is empty; give the project, prj_…',
    ],
    [['watch', '../x', '--into', '.', '--once'], 'galley: ../x is not a project id (prj_…)'],
    // An id without the prefix is none either: refused here, not sent to come back as a 404.
    [['pull', 'abc'], 'galley: abc is not a project id (prj_…)'],
    [['push', 'abc', '.'], 'galley: abc is not a project id (prj_…)'],
    [['watch', 'abc', '--into', '.', '--once'], 'galley: abc is not a project id (prj_…)'],
  ];
  it.each(cases)('galley %j', async (args, line) => {
    const run = await galley(args, { env });
    expect(run).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
  });

  it('--server "" and --token "" are mistakes, not a fall back to the variables', async () => {
    for (const [args, line] of [
      [
        ['--server', ''],
        'galley: --server is empty; give a value, or leave --server out to use GALLEY_SERVER',
      ],
      [
        ['--token', ''],
        'galley: --token is empty; give a value, or leave --token out to use GALLEY_TOKEN',
      ],
    ] as const) {
      for (const command of [
        ['pull', 'prj_x'],
        ['push', 'prj_x', '.'],
        ['watch', 'prj_x', '--into', '.', '--once'],
      ]) {
        const run = await galley([...command, ...args], { env });
        expect([command, run]).toEqual([command, { code: 2, stdout: '', stderr: `${line}\n` }]);
      }
    }
  });
});

describe('help asked for: printed on stdout, exit 0', () => {
  it.each([
    [['--help']],
    [['help']],
    [['check', '--help']],
    [['help', 'pull']],
    [['tokens', 'issue', '--help']],
    [['accounts', '--help']],
  ])('galley %j', async (args) => {
    const run = await galley(args);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: galley/);
  });
  it('pull --help names the timeout, its limit and its default', async () => {
    const run = await galley(['pull', '--help']);
    expect(run.stdout).toMatch(/--timeout <seconds>.*\(at most 3600\).*\(default: 60\)/s);
  });
  it('watch --help names the interval’s limit; convert --help shows -o as required', async () => {
    const watch = await galley(['watch', '--help']);
    expect(watch.stdout).toMatch(/--interval <seconds>.*\(at most 86400\).*\(default: 30\)/s);
    const convert = await galley(['convert', '--help']);
    expect(convert.stdout).toMatch(/^Usage: galley convert <site> -o <file> \[options\]\n/);
  });
});

describe('a standard output that cannot be written', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await directoryOf(validProject());
  });
  afterAll(async () => {
    await removeDirectory(dir);
  });

  /** `galley …` with stdout on `stdout` (a file descriptor, or a pipe closed at once). */
  function run(args: string[], stdout: number | 'closed-pipe') {
    const child = spawn(process.execPath, [...galleyArgs, ...args], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '' },
      stdio: ['ignore', stdout === 'closed-pipe' ? 'pipe' : stdout, 'pipe'],
    });
    if (stdout === 'closed-pipe') child.stdout!.destroy(); // the reader is gone before a byte
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('a full disk (/dev/full): one line on stderr, exit 1, no stack', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['check', dir], ['check', dir, '--json'], ['--help'], ['--version']]) {
        const result = await run(args, full);
        expect([args, result.code]).toEqual([args, 1]);
        expect(result.stderr).toBe(
          'galley: cannot write to standard output: ENOSPC: no space left on device, write\n',
        );
        expect(oneErrorLine({ code: result.code, stdout: '', stderr: result.stderr })).toBe(true);
      }
    } finally {
      closeSync(full);
    }
  });

  it('a reader that went away (EPIPE): quiet, exit 1', async () => {
    const result = await run(['check', dir, '--json'], 'closed-pipe');
    expect(result).toEqual({ code: 1, stderr: '' });
  });
});
