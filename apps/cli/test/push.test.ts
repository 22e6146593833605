// `galley push` against a real server on loopback: folders and plain sites, as ZIPs and as
// directories, and the service's refusals (its 422 report, another client's lock).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkFolder, readZip, writeZip } from '@galley/core';
import type { v1 } from '@galley/core';
import {
  directoryOf,
  folderOf,
  galley,
  oneErrorLine,
  page,
  removeDirectory,
  validProject,
} from './support/galley.js';
import { createProject, fakeService, startServer } from './support/server.js';
import type { TestServer } from './support/server.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

const decoder = new TextDecoder();

describe('galley push', () => {
  let s: TestServer;
  let project: v1.Project;
  let scratch: string;
  let env: Record<string, string>;
  const made: string[] = [];
  const directory = async (files: Parameters<typeof directoryOf>[0]) => {
    const path = await directoryOf(files);
    made.push(path);
    return path;
  };
  beforeAll(async () => {
    s = await startServer();
    project = await createProject(s);
    scratch = await directory({});
    env = { GALLEY_SERVER: s.url, GALLEY_TOKEN: s.token };
  });
  afterAll(async () => {
    await s.close();
    for (const path of made) await removeDirectory(path);
  });

  /** The project's saved folder, as the service exports it. */
  async function savedFolder() {
    const res = await fetch(`${s.url}/api/v1/projects/${project.id}/folder`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    return readZip(new Uint8Array(await res.arrayBuffer())).folder;
  }

  it('replaces the contents with a directory: the service then holds exactly its files', async () => {
    const files = validProject({ 'news.txt': 'Open on Sundays' });
    const run = await galley(['push', project.id, await directory(files)], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/replaced "Shop", revision 2, 2 pages/);
    const saved = await savedFolder();
    expect([...saved.keys()].sort()).toEqual(Object.keys(files).sort());
    expect(decoder.decode(saved.get('news.txt'))).toBe('Open on Sundays');
  });

  it('a ZIP, with --json: the Project the service answers', async () => {
    const zip = join(scratch, 'folder.zip');
    await writeFile(zip, writeZip(folderOf(validProject({ 'news.txt': 'Closed' }))));
    const run = await galley(['push', project.id, zip, '--json'], { env });
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as v1.Project;
    expect(body).toMatchObject({ id: project.id, revision: 3, pages: 2, title: 'Shop' });
    expect(decoder.decode((await savedFolder()).get('news.txt'))).toBe('Closed');
  });

  it('a plain site is converted by the service, and its report shown', async () => {
    const site = {
      'index.html': page('Corner Shop', '<a href="about.html">About</a>'),
      'about.html': page('About', '<p>Us</p>'),
    };
    const run = await galley(['push', project.id, await directory(site)], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/replaced "Corner Shop", revision 4, 2 pages/);
    expect(run.stdout).toMatch(/index\.html\s+\//);
    expect(run.stdout).toMatch(/about\.html\s+\/about\.html/);
  });

  it('a folder that fails the contract: exit 1, the report as `galley check` prints it', async () => {
    const broken = validProject({
      'index.html': page('Home', '<img src="img/missing.png" alt="">'),
    });
    const dir = await directory(broken);
    const human = await galley(['push', project.id, dir], { env });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`${dir} (refused by the service): failed`);
    expect(human.stdout).toMatch(/✗ links\s+failed/);
    expect(human.stdout).toMatch(/error\s+index\.html:4:1 @1\s+links\.missing/);

    const json = await galley(['push', project.id, dir, '--json'], { env });
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout) as Record<string, unknown>;
    const local = checkFolder(folderOf(broken));
    expect(body).toMatchObject({ status: 422, code: 'folder_check_failed' });
    expect({ checks: body.checks, violations: body.violations }).toEqual({
      checks: local.checks,
      violations: local.violations,
    });
    expect((await savedFolder()).has('img/missing.png')).toBe(false);
  });

  it('a site of one page: "1 page"', async () => {
    const site = { 'index.html': page('Single', '<p>Only</p>') };
    const run = await galley(['push', project.id, await directory(site)], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\S+ → prj_\S+: replaced "Single", revision \d+, 1 page\n/);
  });

  it('an answer that is not a project, or not JSON: exit 1, one line saying so', async () => {
    const dir = await directory(validProject());
    for (const [body, line] of [
      [
        '{"id":"prj_f"}',
        /^galley: the service sent an answer that is not a project \(title: Invalid input: expected string, received undefined\)\n$/,
      ],
      [
        '<html>ok</html>',
        /^galley: the service sent an answer that is not JSON, for project prj_\S+ \(.*\)\n$/,
      ],
    ] as const) {
      const fake = await fakeService((req, res) => {
        req.resume(); // the upload is read and dropped
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
      });
      try {
        const run = await galley(['push', project.id, dir], {
          env: { ...env, GALLEY_SERVER: fake.url },
        });
        expect([body, run.code]).toEqual([body, 1]);
        expect(oneErrorLine(run)).toBe(true);
        expect(run.stderr).toMatch(line);
      } finally {
        await fake.close();
      }
    }
  });

  /** The project locked by another client: its run's lock, taken again if it holds it. */
  async function lockedElsewhere() {
    const lock = await fetch(`${s.url}/api/v1/projects/${project.id}/lock`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${s.token}`,
        'content-type': 'application/json',
        'x-editor-client': 'other-run',
      },
      body: JSON.stringify({ kind: 'agent', label: 'nightly import' }),
    });
    expect(lock.status).toBe(200);
  }

  it('another client holding the lock: exit 1, saying who and until when', async () => {
    await lockedElsewhere();
    const run = await galley(['push', project.id, await directory(validProject())], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^galley: project ${project.id} is being edited by Ada \\(nightly import\\) until \\S+; try again later \\(423\\)\\n$`,
      ),
    );
  });

  it('--json: the body of every refusal on stdout, and the line on stderr', async () => {
    const dir = await directory(validProject());
    await lockedElsewhere();
    const cases: Array<[string, Record<string, string>, number, RegExp]> = [
      [project.id, { ...env, GALLEY_TOKEN: 'glly_made-up' }, 401, /refused the token \(401\)/],
      ['prj_nope', env, 404, /project prj_nope was not found/],
      [project.id, env, 423, /is being edited by Ada \(nightly import\)/],
    ];
    for (const [id, runEnv, status, line] of cases) {
      const run = await galley(['push', id, dir, '--json'], { env: runEnv });
      expect([status, run.code]).toEqual([status, 1]);
      expect(JSON.parse(run.stdout)).toMatchObject({ status, code: expect.any(String) as string });
      expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(new RegExp(`^galley: .*${line.source}.*\n$`));
    }
  });

  it('unusable input: exit 2 before anything is sent', async () => {
    const missing = await galley(['push', project.id, join(scratch, 'nope')], { env });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/nope: no such file or directory/);
    const noArg = await galley(['push', project.id], { env });
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toContain("missing required argument 'folder'");
  });
});
