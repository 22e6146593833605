// `pnpm start` as a person runs it from the README: it says what it does while it builds, names
// the store in its start line, and a Ctrl-C (SIGINT to the terminal's whole process group) ends
// it with exit 0 and without pnpm's "ELIFECYCLE Command failed". And a database out of reach is
// explained with the setting to check, never with a bare ECONNREFUSED.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { directoryOf, galley, oneErrorLine, removeDirectory, repo } from './support/galley.js';

// Without a build, `pnpm start` builds first, as on a fresh clone (a few minutes on a busy host).
vi.setConfig({ testTimeout: 900_000 });

let data: string;
beforeAll(async () => {
  data = await directoryOf({});
});
afterAll(() => removeDirectory(data));

it('pnpm start: the store in its start line; Ctrl-C ends it with 0 and no pnpm failure', async () => {
  const built = existsSync(join(repo, 'apps/cli/dist/bin.js'));
  const child = spawn('pnpm', ['start', '--port', '0', '--data', data, '--workers', '1'], {
    cwd: repo,
    detached: true, // its own process group, as a terminal's foreground job
    env: {
      ...process.env,
      GALLEY_START_BUILD: built ? '0' : '1',
      GALLEY_LOG_LEVEL: 'silent',
      GALLEY_DATABASE_URL: '',
    },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await vi.waitFor(() => expect(output).toMatch(/Galley is at/), {
    timeout: 800_000,
    interval: 200,
  });
  expect(output).toContain(`(data: ${data}, store: SQLite ${join(data, 'galley.sqlite')})`);
  if (!built) expect(output).toContain('Building Galley');
  process.kill(-child.pid!, 'SIGINT'); // what Ctrl-C does
  expect(await exited).toBe(0);
  expect(output).not.toMatch(/ELIFECYCLE|Command failed/);
});

it('a PostgreSQL out of reach: one line naming GALLEY_DATABASE_URL, never its password', async () => {
  const run = await galley(['serve', '--port', '0', '--data', data, '--workers', '1'], {
    env: { GALLEY_DATABASE_URL: 'postgres://galley:s3cret@127.0.0.1:1/galley' },
  });
  expect(run.code).toBe(1);
  expect(oneErrorLine(run)).toBe(true);
  expect(run.stderr).toMatch(
    /^galley: cannot use the database PostgreSQL galley@127\.0\.0\.1:1\/galley \(ECONNREFUSED\): .*; check GALLEY_DATABASE_URL \(docs\/operations\.md\): the host and port in it, and that PostgreSQL runs/,
  );
  expect(run.stderr).not.toContain('s3cret');
});
