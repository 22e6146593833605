// docs/quickstart.md, followed as written: its `sh` blocks run in order with bash, then its
// TypeScript program is typechecked and run, against a real service on loopback that was given
// a first start (the office account and token it prints). The doc and this test cannot drift.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openStore } from '@galley/store';
import type { Store } from '@galley/store';
import { bootstrapOffice, loadConfig, startServer } from '@galley/server';
import type { OfficeCredentials, RunningServer } from '@galley/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fencedBlocks, missingCommands, settingsOf } from './markdown-blocks.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const doc = await readFile(join(repo, 'docs/quickstart.md'), 'utf8');
const shellBlocks = fencedBlocks(doc, 'sh');
const [program] = fencedBlocks(doc, 'ts');

const tools = ['bash', 'curl', 'jq', 'zip', 'unzip', 'sha256sum', 'grep'];
const missing = await missingCommands(tools);
if (missing.length) console.log(`quickstart tests skipped: ${missing.join(', ')} not installed`);

describe.skipIf(missing.length > 0)('docs/quickstart.md', () => {
  let dataDir: string;
  let store: Store;
  let server: RunningServer;
  let office: OfficeCredentials;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'galley-quickstart-'));
    store = await openStore({ kind: 'sqlite', dataDir });
    const config = loadConfig({}, { dataDir, logLevel: 'silent' });
    server = await startServer({
      store,
      clock: store.clock,
      config,
      host: '127.0.0.1',
      port: 0,
      baseUrlFromListen: true,
    });
    const created = await bootstrapOffice(store);
    if (!created) throw new Error('a new store had accounts');
    office = created;
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** What the reader sets in step 1, from what the first start printed. */
  const settings = () => ({
    GALLEY_URL: server.url,
    GALLEY_TOKEN: office.token,
    GALLEY_EMAIL: office.email,
    GALLEY_PASSWORD: office.password,
  });

  /** Runs `script` with bash in `cwd`, stopping at the first failing command. */
  const bash = (script: string, cwd: string) =>
    run('bash', ['-c', `set -euo pipefail\n${script}`], {
      cwd,
      env: { ...process.env, ...settings() },
      timeout: 60_000,
    });

  it('names in step 1 the settings a first start prints, and nothing else', () => {
    expect(shellBlocks.length).toBeGreaterThan(5);
    const names = Object.keys(settingsOf(shellBlocks[0]!));
    expect(names.sort()).toEqual(Object.keys(settings()).sort());
  });

  it('gets from a first start to a confirmed version with curl', async () => {
    const work = await mkdtemp(join(tmpdir(), 'galley-quickstart-sh-'));
    try {
      // Step 1's block only names the settings: they come from the real first start instead.
      const { stdout } = await bash(shellBlocks.slice(1).join('\n'), work);
      expect(stdout).toContain('confirmed.zip: OK');
      expect(stdout).toContain('Made with curl.');
      expect(stdout).toContain('"version": 1,');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('does the same with the TypeScript client (typechecked, then run)', async () => {
    expect(program).toBeDefined();
    const work = await mkdtemp(join(tmpdir(), 'galley-quickstart-ts-'));
    try {
      // The folder the program reads is the one the doc's shell steps make (step 2).
      for (const block of shellBlocks.slice(1)) {
        if (existsSync(join(work, 'hello.zip'))) break;
        await bash(block, work);
      }
      expect(existsSync(join(work, 'hello.zip'))).toBe(true);
      // The program sees the packages as a reader's project would: through node_modules.
      await symlink(join(repo, 'apps/server/node_modules'), join(work, 'node_modules'), 'dir');
      await writeFile(join(work, 'package.json'), '{"type": "module"}\n');
      await writeFile(join(work, 'quickstart.ts'), program!);
      await writeFile(
        join(work, 'tsconfig.json'),
        JSON.stringify({
          extends: join(repo, 'tsconfig.base.json'),
          compilerOptions: {
            noEmit: true,
            lib: ['ES2023', 'DOM'],
            types: ['node'],
            typeRoots: [join(repo, 'node_modules/@types')],
          },
          files: ['quickstart.ts'],
        }),
      );
      const bin = (name: string) => join(repo, 'node_modules/.bin', name);
      await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: work, timeout: 240_000 }).catch(
        (error: { stdout?: string }) => {
          throw new Error(`the quickstart's TypeScript does not typecheck:\n${error.stdout}`);
        },
      );
      const { stdout } = await run(bin('tsx'), ['--conditions=@galley/source', 'quickstart.ts'], {
        cwd: work,
        env: { ...process.env, ...settings() },
        timeout: 60_000,
      });
      expect(stdout).toMatch(/^revision \d+ confirmed as version \d+: [0-9a-f]{64}\n$/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 330_000);
});
