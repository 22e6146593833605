// A directory is read as the service reads the same files zipped: `check dir --json`,
// `check dir.zip --json` and the service's 422 report agree byte for byte, and `convert` and
// `push` of a directory refuse what the service refuses. The cases are the ones where reading a
// directory file by file once differed: names equal but for case, a control character in a
// name, and a file over the 50 MiB limit.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkZip, convertSiteZip, writeZip } from '@galley/core';
import type { CheckReport } from '@galley/core';
import {
  directoryOf,
  folderOf,
  galley,
  page,
  removeDirectory,
  validProject,
  zipped,
} from './support/galley.js';
import type { Files } from './support/galley.js';
import { createProject, startServer } from './support/server.js';
import type { TestServer } from './support/server.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

const MiB = 1024 * 1024;

/** The report of a 422 answer, as `check --json` prints one: the three fields, in this order. */
const reportOf = (body: Partial<CheckReport>) =>
  JSON.stringify({ checks: body.checks, violations: body.violations, contracts: body.contracts });

describe('a directory, its ZIP and the service agree', () => {
  let s: TestServer;
  let scratch: string;
  const made: string[] = [];
  const directory = async (files: Files) => {
    const path = await directoryOf(files);
    made.push(path);
    return path;
  };
  beforeAll(async () => {
    s = await startServer();
    scratch = await directory({});
  });
  afterAll(async () => {
    await s.close();
    for (const path of made) await removeDirectory(path);
  });

  /** What the service answers to `zip` uploaded as a new project: its status and body. */
  async function upload(zip: Uint8Array) {
    const form = new FormData();
    form.set('zip', new Blob([zip], { type: 'application/zip' }), 'folder.zip');
    const res = await fetch(`${s.url}/api/v1/projects/folder`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'x-editor-client': 'agreement' },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Partial<CheckReport> };
  }

  const cases: Array<[string, Files, string[]]> = [
    [
      'two names equal but for case',
      validProject({ 'a.txt': 'a', 'A.txt': 'A' }),
      ['names.duplicate', 'names.duplicate'],
    ],
    [
      'a control character in a name',
      validProject({ 'ctl\u0001.txt': 'x' }),
      ['names.control_character'],
    ],
    [
      'a file over 50 MiB',
      validProject({ 'big.bin': new Uint8Array(50 * MiB + 1) }),
      ['limits.file_size'],
    ],
  ];

  it.each(cases)('check: %s', async (_name, files, codes) => {
    const dir = await directory(files);
    const zipPath = join(scratch, `${made.length}.zip`);
    const zip = writeZip(folderOf(files)); // zipped by another writer (fflate) than the CLI's
    await writeFile(zipPath, zip);
    const fromDir = await galley(['check', dir, '--json']);
    const fromZip = await galley(['check', zipPath, '--json']);
    const service = await upload(zip);
    expect(fromDir.code).toBe(1);
    expect(fromZip.code).toBe(1);
    expect(service.status).toBe(422);
    expect(fromDir.stdout).toBe(fromZip.stdout);
    expect(fromDir.stdout).toBe(`${reportOf(service.body)}\n`);
    expect(fromDir.stdout).toBe(`${JSON.stringify(checkZip(zip))}\n`);
    const report = JSON.parse(fromDir.stdout) as CheckReport;
    expect(report.violations.map((v) => v.code)).toEqual(codes);
    // Paths are printed as the ZIP reader shows them: control characters escaped.
    expect([...fromDir.stdout.trimEnd()].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
  });

  it('check: a path shown escaped, and only the ZIP reader’s findings (no formats.mismatch)', async () => {
    const dir = await directory(
      validProject({ 'ctl\u0001.txt': 'x', 'big.bin': new Uint8Array(50 * MiB + 1) }),
    );
    const run = await galley(['check', dir, '--json']);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.violations.map((v) => [v.code, v.path])).toEqual([
      ['limits.file_size', 'big.bin'],
      ['names.control_character', 'ctl\\u0001.txt'],
    ]);
  });

  it('push of a directory: the service refuses it with that same report', async () => {
    const project = await createProject(s, 'Agreement');
    const files = validProject({ 'a.txt': 'a', 'A.txt': 'A' });
    const dir = await directory(files);
    const pushed = await galley(['push', project.id, dir, '--json'], {
      env: { GALLEY_SERVER: s.url, GALLEY_TOKEN: s.token },
    });
    expect(pushed.code).toBe(1);
    const checked = await galley(['check', dir, '--json']);
    expect(`${reportOf(JSON.parse(pushed.stdout) as CheckReport)}\n`).toBe(checked.stdout);
  });

  it('convert: a plain site with names equal but for case is refused, as the service does', async () => {
    const site = {
      'index.html': page('Home', '<p>Hello</p>'),
      'a.txt': 'a',
      'A.txt': 'A',
    };
    const dir = await directory(site);
    const zip = writeZip(folderOf(site));
    const zipPath = join(scratch, 'site.zip');
    await writeFile(zipPath, zip);
    const target = join(scratch, 'never.zip');
    const fromDir = await galley(['convert', dir, '-o', target, '--json']);
    const fromZip = await galley(['convert', zipPath, '-o', target, '--json']);
    const service = await upload(zip);
    expect(fromDir.code).toBe(1);
    expect(fromZip.code).toBe(1);
    expect(service.status).toBe(422);
    expect(fromDir.stdout).toBe(fromZip.stdout);
    expect(fromDir.stdout).toBe(`${reportOf(service.body)}\n`);
    const failed = convertSiteZip(zipped(folderOf(site)));
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(fromDir.stdout).toBe(`${JSON.stringify(failed.report)}\n`);
    const report = JSON.parse(fromDir.stdout) as CheckReport;
    expect(report.violations.map((v) => [v.code, v.path])).toEqual([
      ['site.read', 'A.txt'],
      ['site.read', 'a.txt'],
    ]);
    expect(report.violations[0]!.message).toContain('(names.duplicate)');
    const human = await galley(['convert', dir, '-o', target]);
    expect(human.code).toBe(1);
    expect(human.stdout).not.toContain('site.renamed');
  });
});
