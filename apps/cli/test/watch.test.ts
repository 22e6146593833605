// `galley watch` against a real server on loopback: confirmed versions imported once each,
// equal sha256 skipped, paging, the record, SIGINT, and downloads that must not be trusted.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '@galley/store/ids';
import type { v1 } from '@galley/core';
import {
  directoryOf,
  galley,
  oneErrorLine,
  removeDirectory,
  spawnGalley,
} from './support/galley.js';
import { createProject, renameProject, screenSession, startServer } from './support/server.js';
import type { Screen, TestServer } from './support/server.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

interface ImportRecord {
  format: number;
  imported: Array<{ project: string; version: number; sha256: string; file: string }>;
  skipped: Array<{ project: string; version: number; sha256: string }>;
}
const readRecord = async (dir: string) =>
  JSON.parse(await readFile(join(dir, '.galley-imported.json'), 'utf8')) as ImportRecord;

/**
 * A proxy in front of the real server that alters what it passes on, to show that the CLI does
 * not trust a download: `corrupt` flips a byte of every ZIP, `rewrite` points URLs at itself.
 */
async function alteringProxy(target: string, options: { corrupt: boolean; rewrite: boolean }) {
  let self = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const upstream = await fetch(`${target}${req.url}`, {
        headers: { authorization: req.headers.authorization ?? '' },
      });
      const type = upstream.headers.get('content-type') ?? '';
      let body = Buffer.from(await upstream.arrayBuffer());
      if (options.rewrite && type.includes('json'))
        body = Buffer.from(body.toString('utf8').replaceAll(target, self));
      if (options.corrupt && type.includes('zip')) body[body.length - 40]! ^= 0xff;
      res.writeHead(upstream.status, { 'content-type': type }).end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url: self, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('galley watch', () => {
  let s: TestServer;
  let screen: Screen;
  let project: v1.Project;
  let env: Record<string, string>;
  const made: string[] = [];
  const folder = async () => {
    const path = await directoryOf({});
    made.push(path);
    return path;
  };
  beforeAll(async () => {
    s = await startServer();
    screen = await screenSession(s);
    project = await createProject(s);
    env = { GALLEY_SERVER: s.url, GALLEY_TOKEN: s.token };
  });
  afterAll(async () => {
    await s.close();
    for (const path of made) await removeDirectory(path);
  });

  describe('--once, step by step into one folder', () => {
    let into: string;
    const once = () => galley(['watch', project.id, '--into', into, '--once'], { env });
    beforeAll(async () => {
      into = join(await folder(), 'imports'); // made by the command
    });

    it('nothing confirmed yet: nothing imported', async () => {
      const run = await once();
      expect(run).toMatchObject({ code: 0, stderr: '', stdout: `nothing new for ${project.id}\n` });
      expect(await readdir(into)).toEqual([]);
    });

    it('a confirmed version: downloaded, verified, written, recorded', async () => {
      const v = await screen.confirm(project.id, 'first');
      const run = await once();
      const file = join(into, `${project.id}-v1.zip`);
      expect(run).toMatchObject({ code: 0, stdout: `v1: ${file} (sha256 ${v.sha256})\n` });
      expect(sha256Hex(new Uint8Array(await readFile(file)))).toBe(v.sha256);
      expect(await readRecord(into)).toMatchObject({
        format: 1,
        imported: [
          { project: project.id, version: 1, sha256: v.sha256, file: `${project.id}-v1.zip` },
        ],
        skipped: [],
      });
    });

    it('a version with an equal sha256 is already imported: skipped, not downloaded', async () => {
      const v2 = await screen.confirm(project.id, 'again, unchanged');
      const run = await once();
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        `v2: skipped, the same ZIP as ${project.id}-v1.zip (sha256 ${v2.sha256})\n`,
      );
      expect((await readdir(into)).sort()).toEqual([
        '.galley-imported.json',
        `${project.id}-v1.zip`,
      ]);
      expect((await readRecord(into)).skipped).toEqual([
        { project: project.id, version: 2, sha256: v2.sha256 },
      ]);
    });

    it('only what is new is imported; a second run finds nothing', async () => {
      await renameProject(s, project.id, 'Shop, renamed');
      const v3 = await screen.confirm(project.id);
      const run = await once();
      expect(run.stdout).toBe(`v3: ${join(into, `${project.id}-v3.zip`)} (sha256 ${v3.sha256})\n`);
      expect((await once()).stdout).toBe(`nothing new for ${project.id}\n`);
    });

    it('an unreadable record is unusable input (exit 2), and left as it is', async () => {
      const broken = await folder();
      const text = '{"format": 1, "imported": [';
      await writeFile(join(broken, '.galley-imported.json'), text);
      const run = await galley(['watch', project.id, '--into', broken, '--once'], { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/\.galley-imported\.json is not JSON; repair it, or remove it/);
      expect(await readFile(join(broken, '.galley-imported.json'), 'utf8')).toBe(text);
    });
  });

  it('follows next_page_url through every page of confirmations', async () => {
    const many = await createProject(s, 'Many');
    for (let i = 0; i < 52; i++) await screen.confirm(many.id); // per page: 50
    const into = await folder();
    const run = await galley(['watch', many.id, '--into', into, '--once'], { env });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(52);
    expect(lines[0]).toMatch(/^v1: .*-v1\.zip/);
    expect(lines[51]).toMatch(/^v52: skipped/);
    const record = await readRecord(into);
    expect(record.skipped.map((v) => v.version)).toEqual(
      Array.from({ length: 51 }, (_, i) => i + 2),
    );
  });

  it('polls until SIGINT, importing versions as they are confirmed, then stops cleanly', async () => {
    const live = await createProject(s, 'Live');
    const into = await folder();
    const child = spawnGalley(['watch', live.id, '--into', into, '--interval', '0.3'], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const seen = async (pattern: RegExp) => {
      for (let waited = 0; !pattern.test(stdout); waited += 50) {
        if (waited > 20_000) throw new Error(`no ${pattern} in: ${stdout} ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const v1 = await screen.confirm(live.id);
    await seen(/^v1: /m);
    await renameProject(s, live.id, 'Live, later');
    const v2 = await screen.confirm(live.id);
    await seen(/^v2: /m);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toBe(''); // the banner is for a terminal only
    expect(stdout).toMatch(/^v1: [^\n]+\nv2: [^\n]+\nstopped\n$/); // nothing but the answer
    expect((await readdir(into)).sort()).toEqual([
      '.galley-imported.json',
      `${live.id}-v1.zip`,
      `${live.id}-v2.zip`,
    ]);
    expect((await readRecord(into)).imported.map((v) => v.sha256)).toEqual([v1.sha256, v2.sha256]);
  });

  it('with --events, imports a version as soon as its confirmation is announced', async () => {
    const live = await createProject(s, 'Announced');
    const into = await folder();
    // An hour between polls: only the event can bring the version in time.
    const args = ['watch', live.id, '--into', into, '--interval', '3600', '--events'];
    const child = spawnGalley(args, { env });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the first poll and the stream
    await screen.confirm(live.id);
    for (let waited = 0; !/^v1: /m.test(stdout); waited += 50) {
      if (waited > 20_000) throw new Error(`no v1 in: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await readdir(into)).toContain(`${live.id}-v1.zip`);
  });

  it('a download whose SHA-256 differs from the confirmation is not imported (exit 1)', async () => {
    const confirmed = await createProject(s, 'Tampered');
    await screen.confirm(confirmed.id);
    const proxy = await alteringProxy(s.url, { corrupt: true, rewrite: true });
    try {
      const into = await folder();
      const run = await galley(['watch', confirmed.id, '--into', into, '--once'], {
        env: { ...env, GALLEY_SERVER: proxy.url },
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^galley: version 1 downloaded with SHA-256 [0-9a-f]{64}, not [0-9a-f]{64} as confirmed; not imported\n$/,
      );
      expect(await readdir(into)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a download_url on another origin is not fetched with the token (exit 1)', async () => {
    const confirmed = await createProject(s, 'Elsewhere');
    await screen.confirm(confirmed.id);
    const proxy = await alteringProxy(s.url, { corrupt: false, rewrite: false });
    try {
      const into = await folder();
      const run = await galley(['watch', confirmed.id, '--into', into, '--once'], {
        env: { ...env, GALLEY_SERVER: proxy.url },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`outside ${proxy.url}; the token is not sent there`);
    } finally {
      await proxy.close();
    }
  });

  it('a next_page_url on another origin is not followed with the token; nothing recorded', async () => {
    const paged = await createProject(s, 'Paged elsewhere');
    await screen.confirm(paged.id);
    // Elsewhere: a server that records whoever asks it anything, with which credentials.
    const asked: Array<string | undefined> = [];
    const elsewhere = createServer((req, res) => {
      asked.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const foreign = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}`;
    // In front of the real server: the same answers, but the list of confirmations gains a
    // next page elsewhere (download URLs are made to point at the proxy, so only the page is foreign).
    let self = '';
    let nextPage = '';
    const proxy = createServer((req, res) => {
      void (async () => {
        if (req.url === '/broken-page') {
          res.writeHead(500, { 'content-type': 'application/problem+json' });
          res.end(
            '{"type":"about:blank","title":"Broken","status":500,"detail":"broken","code":"internal"}',
          );
          return;
        }
        const upstream = await fetch(`${s.url}${req.url}`, {
          headers: { authorization: req.headers.authorization ?? '' },
        });
        const type = upstream.headers.get('content-type') ?? '';
        let body = Buffer.from(await upstream.arrayBuffer());
        if (type.includes('json')) {
          const text = body.toString('utf8').replaceAll(s.url, self);
          const json = JSON.parse(text) as { next_page_url?: string | null };
          if (req.url?.includes('/confirmations')) json.next_page_url = nextPage;
          body = Buffer.from(JSON.stringify(json));
        }
        res.writeHead(upstream.status, { 'content-type': type }).end(body);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    self = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    nextPage = `${foreign}/api/v1/projects/${paged.id}/confirmations?page=2`;
    try {
      const into = await folder();
      const run = await galley(['watch', paged.id, '--into', into, '--once'], {
        env: { ...env, GALLEY_SERVER: self },
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `galley: the next page of confirmations is offered at ${foreign}/api/v1/projects/${paged.id}/confirmations?page=2, outside ${self}; the token is not sent there\n`,
      );
      expect(asked).toEqual([]);
      expect(await readdir(into)).toEqual([]); // no version written, none recorded as handled
      // Watching (not --once), it is not retried either: the run ends at once, exit 1.
      const watching = await galley(['watch', paged.id, '--into', into, '--interval', '0.2'], {
        env: { ...env, GALLEY_SERVER: self },
      });
      expect(watching.code).toBe(1);
      expect(watching.stderr).toContain('the token is not sent there');
      expect(asked).toEqual([]);
      expect(await readdir(into)).toEqual([]);
      // A next page on the service's origin that cannot be read: likewise nothing handled.
      nextPage = `${self}/broken-page`;
      const broken = await galley(['watch', paged.id, '--into', into, '--once'], {
        env: { ...env, GALLEY_SERVER: self },
      });
      expect(broken.code).toBe(1);
      expect(broken.stderr).toBe('galley: 500 internal: broken\n');
      expect(await readdir(into)).toEqual([]);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('stops at once (exit 1) on what polling again cannot fix: an unknown project', async () => {
    const top = await folder();
    for (const mode of [['--interval', '0.2'], ['--once']]) {
      // An --into to be made: an unknown project leaves none behind.
      const into = join(top, 'w4', 'deeper');
      const run = await galley(['watch', 'prj_unknown', '--into', into, ...mode], { env });
      expect([mode, run.code]).toEqual([mode, 1]);
      expect(oneErrorLine(run)).toBe(true);
      expect(run.stderr).toMatch(/project prj_unknown was not found/);
      expect(await readdir(top)).toEqual([]);
    }
  });

  it('unusable options: exit 2', async () => {
    const into = await folder();
    for (const [args, reason] of [
      [['--interval', '0'], /seconds, more than 0/],
      [[], /no service given/],
    ] as const) {
      const run = await galley(['watch', project.id, '--into', into, ...args], {
        env: args.length === 0 ? {} : env,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(reason);
    }
    const noInto = await galley(['watch', project.id], { env });
    expect(noInto.code).toBe(2);
    expect(noInto.stderr).toContain("required option '--into <dir>' not specified");
    // A file in the way, or no folder at all: a mistaken --into, one line, exit 2, at once.
    const file = join(into, 'a-file');
    await writeFile(file, 'x');
    for (const [dir, line] of [
      [file, `galley: --into ${file} is not a folder (a file is in the way); give a folder\n`],
      [
        join(file, 'inside'),
        `galley: --into ${join(file, 'inside')} is not a folder (a file is in the way); give a folder\n`,
      ],
      ['', 'galley: --into is empty; give the folder to import into\n'],
    ]) {
      const run = await galley(['watch', project.id, '--into', dir!, '--once'], { env });
      expect([dir, run]).toEqual([dir, { code: 2, stdout: '', stderr: line }]);
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'a folder the system will not make is one it cannot write: exit 1, as for an unwritable folder',
    async () => {
      // Under /proc every new name is refused (where Node's recursive mkdir loops for ever).
      const run = await galley(
        ['watch', project.id, '--into', '/proc/galley-watch-test/deeper', '--once'],
        { env },
      );
      expect(run.code).toBe(1);
      expect(oneErrorLine(run)).toBe(true);
      expect(run.stderr).toMatch(
        /^galley: cannot make the folder \/proc\/galley-watch-test\/deeper: /,
      );
    },
  );
});
