// `galley convert`: plain sites (generated, and the real corpus sites read in place) into project
// folder ZIPs; the written ZIP is the core's conversion zipped deterministically; exit codes 0/1/2.
import { execFileSync } from 'node:child_process';
import { lstat, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkZip, convertSite, convertSiteZip, writeZip } from '@galley/core';
import {
  corpusMissing,
  corpusSiteNames,
  corpusSites,
  directoryOf,
  folderOf,
  galley,
  page,
  oneErrorLine,
  png,
  readTree,
  removeDirectory,
  zipped,
} from './support/galley.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

const made: string[] = [];
async function directory(files: Parameters<typeof directoryOf>[0] = {}) {
  const path = await directoryOf(files);
  made.push(path);
  return path;
}
afterAll(async () => {
  for (const path of made) await removeDirectory(path);
});

function converted(result: ReturnType<typeof convertSite>) {
  if (!result.ok) throw new Error(`expected a conversion: ${JSON.stringify(result.report)}`);
  return result;
}

/** A plain site with something for every part of the report: pages, ignored files, warnings. */
const site = {
  'index.html': page(
    'Corner Shop',
    '<h1>Shop</h1><img src="img/Dot.PNG" alt=""><a href="about/">About</a> <a href="gone.html">Old page</a>',
    '<link rel="stylesheet" href="style.css">',
  ),
  'about/index.html': page('About', '<p>About us</p><a href="../index.html">Home</a>'),
  'style.css': 'body { background: url(img/Dot.PNG); }\n',
  'img/Dot.PNG': png,
  '.DS_Store': 'junk',
  'notes.psd': 'unreferenced, of a type the web medium does not allow',
};

describe('galley convert on generated sites', () => {
  let out: string;
  beforeAll(async () => {
    out = await directory();
  });

  it('writes the deterministic project ZIP and prints pages, ignored files and warnings', async () => {
    const input = await directory(site);
    const expected = converted(convertSite(folderOf(site)));
    expect(expected.site.warnings.map((w) => w.code).sort()).toEqual([
      'site.link_removed',
      'site.renamed',
    ]);
    const target = join(out, 'shop.zip');
    const run = await galley(['convert', input, '-o', target]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(new Uint8Array(await readFile(target))).toEqual(zipped(expected.folder));
    expect(run.stdout).toContain(`converted "Corner Shop", ${expected.folder.size} files`);
    for (const p of expected.site.pages)
      expect(run.stdout).toMatch(new RegExp(`${p.file}\\s+${p.public_url}`));
    expect(run.stdout).toContain('Ignored (2)');
    for (const path of expected.site.ignored) expect(run.stdout).toContain(path);
    for (const w of expected.site.warnings) {
      expect(run.stdout).toContain(w.code);
      expect(run.stdout).toContain(w.message);
    }
    // The result passes the folder contract, and no temporary file is left beside it.
    expect(checkZip(await readFile(target)).violations).toEqual([]);
    expect(await readdir(out)).toEqual(['shop.zip']);
  });

  it('--json prints {"site": …} exactly; a ZIP wrapped in one folder gives the same bytes', async () => {
    const wrapped = Object.fromEntries(Object.entries(site).map(([p, v]) => [`shop/${p}`, v]));
    const zipPath = join(out, 'site.zip');
    await writeFile(zipPath, writeZip(folderOf(wrapped)));
    const fromZip = join(out, 'from-zip.zip');
    const run = await galley(['convert', zipPath, '-o', fromZip, '--json']);
    expect(run.code).toBe(0);
    const expected = converted(convertSiteZip(await readFile(zipPath)));
    expect(run.stdout).toBe(`${JSON.stringify({ site: expected.site })}\n`);
    expect(new Uint8Array(await readFile(fromZip))).toEqual(
      zipped(converted(convertSite(folderOf(site))).folder),
    );
  });

  it('a site that cannot be converted: exit 1, the 422 body with --json, nothing written', async () => {
    const bad = {
      'index.html': page(
        'Home',
        '<script src="https://cdn.example.com/x.js"></script><img src="missing.png" alt="">',
      ),
    };
    const input = await directory(bad);
    const target = join(await directory(), 'never.zip');
    const json = await galley(['convert', input, '-o', target, '--json']);
    expect(json.code).toBe(1);
    const failure = convertSite(folderOf(bad));
    expect(failure.ok).toBe(false);
    if (failure.ok) return;
    expect(json.stdout).toBe(`${JSON.stringify(failure.report)}\n`);
    expect(failure.report.checks).toEqual({ site: 'failed' });

    const human = await galley(['convert', input, '-o', target]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/✗ site\s+failed\s+2 errors/);
    expect(human.stdout).toMatch(/error\s+index\.html:4\s+site\.external/);
    expect(human.stdout).toMatch(/error\s+index\.html:4\s+site\.missing/);
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('a project folder, or bytes that are no ZIP, are not plain sites (exit 1)', async () => {
    const project = await directory({ 'project.json': '{}', 'index.html': page('x', '') });
    const run = await galley(['convert', project, '-o', join(out, 'p.zip'), '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('"code":"site.read"');
    const text = join(out, 'text.zip');
    await writeFile(text, 'not a zip');
    const notZip = await galley(['convert', text, '-o', join(out, 'q.zip'), '--json']);
    expect(notZip.code).toBe(1);
    expect(JSON.parse(notZip.stdout)).toMatchObject({ checks: { archive: 'failed' } });
  });

  it('unusable input (exit 2): no site, no such output folder, no -o', async () => {
    const input = await directory(site);
    const missing = await galley(['convert', join(input, 'nope'), '-o', join(out, 'x.zip')]);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^galley: .*nope: no such file or directory\n$/);
    const noFolder = await galley(['convert', input, '-o', '/nonexistent/dir/x.zip']);
    expect(noFolder).toMatchObject({ code: 2, stdout: '' });
    expect(noFolder.stderr).toBe(
      'galley: /nonexistent/dir: no such folder to write /nonexistent/dir/x.zip into\n',
    );
    const noOutput = await galley(['convert', input]);
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr).toContain("required option '-o, --output <file>' not specified");
    expect(oneErrorLine(noOutput)).toBe(true);
  });

  it('an unusable -o is refused before any work (exit 2): a folder, an empty name', async () => {
    const input = await directory(site);
    const cases: Array<[string, string]> = [
      [out, `galley: -o ${out} is a folder; give a file name, e.g. ${join(out, 'folder.zip')}\n`],
      ['', 'galley: -o is empty; give the file to write\n'],
      [
        `${join(out, 'new')}/`,
        `galley: -o ${join(out, 'new')}/ names a folder; give a file name\n`,
      ],
    ];
    const before = await readdir(out);
    for (const [target, message] of cases) {
      const run = await galley(['convert', input, '-o', target]);
      expect(run).toMatchObject({ code: 2, stdout: '', stderr: message });
    }
    expect(await readdir(out)).toEqual(before); // no temporary file left anywhere
  });

  it('-o is never replaced by a file when it is not one: a pipe, or a link to one, is refused (exit 2)', async () => {
    const input = await directory(site);
    const place = await directory();
    const fifo = join(place, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await symlink(fifo, join(place, 'to-pipe.zip'));
    await symlink(place, join(place, 'to-folder.zip'));
    const cases: Array<[string, string]> = [
      [
        fifo,
        `galley: -o ${fifo} is not a regular file (a device, pipe or socket); give a file name\n`,
      ],
      [
        join(place, 'to-pipe.zip'),
        `galley: -o ${join(place, 'to-pipe.zip')} (a link to ${fifo}) is not a regular file (a device, pipe or socket); give a file name\n`,
      ],
      [
        join(place, 'to-folder.zip'),
        `galley: -o ${join(place, 'to-folder.zip')} (a link to ${place}) is a folder; give a file name, e.g. ${join(place, 'to-folder.zip', 'folder.zip')}\n`,
      ],
    ];
    for (const [target, message] of cases) {
      const run = await galley(['convert', input, '-o', target]);
      expect([target, run]).toEqual([target, { code: 2, stdout: '', stderr: message }]);
    }
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    expect((await readdir(place)).sort()).toEqual(['pipe', 'to-folder.zip', 'to-pipe.zip']);
  });

  it('-o a symbolic link: the file it leads to is written, even one not made yet; the link stays', async () => {
    const input = await directory(site);
    const expected = zipped(converted(convertSite(folderOf(site))).folder);
    const place = await directory({ 'real/old.zip': 'old bytes' });
    await symlink('real/old.zip', join(place, 'to-file.zip'));
    await symlink('real/new.zip', join(place, 'to-nothing.zip')); // dangling, its folder exists
    await symlink('gone/x.zip', join(place, 'to-no-folder.zip'));
    for (const link of ['to-file.zip', 'to-nothing.zip']) {
      const run = await galley(['convert', input, '-o', join(place, link)]);
      expect([link, run.code, run.stderr]).toEqual([link, 0, '']);
      expect((await lstat(join(place, link))).isSymbolicLink()).toBe(true);
      expect(new Uint8Array(await readFile(join(place, link)))).toEqual(expected);
    }
    expect((await readdir(join(place, 'real'))).sort()).toEqual(['new.zip', 'old.zip']);
    const noFolder = await galley(['convert', input, '-o', join(place, 'to-no-folder.zip')]);
    expect(noFolder).toEqual({
      code: 2,
      stdout: '',
      stderr: `galley: ${join(place, 'gone')}: no such folder to write ${join(place, 'to-no-folder.zip')} into\n`,
    });
  });
});

if (corpusMissing) console.warn(`skipped: ${corpusMissing}`);
describe.skipIf(!!corpusMissing)('galley convert on the corpus sites, read in place', () => {
  let out: string;
  beforeAll(async () => {
    out = await directory();
  });

  it.each(corpusSiteNames)('%s: the core’s outcome, byte for byte', async (name) => {
    const path = join(corpusSites, name);
    const target = join(out, `${name}.zip`);
    const run = await galley(['convert', path, '-o', target, '--json']);
    // A directory is read as its ZIP is (the service's reader): the conversion of that ZIP.
    const result = convertSiteZip(zipped(readTree(path)));
    if (result.ok) {
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${JSON.stringify({ site: result.site })}\n`);
      expect(new Uint8Array(await readFile(target))).toEqual(zipped(result.folder));
      const checked = await galley(['check', target]);
      expect(checked.code).toBe(0);
    } else {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(`${JSON.stringify(result.report)}\n`);
    }
  });

  it('mdn-backgrounds converts as it is; the others are refused with site.* violations', () => {
    // Pins the expected outcome per site, so the byte-for-byte test above covers both paths.
    for (const name of corpusSiteNames) {
      const result = convertSite(readTree(join(corpusSites, name)));
      if (result.ok) expect(name).toBe('mdn-backgrounds');
      else expect(result.report.violations.every((v) => v.code.startsWith('site.'))).toBe(true);
    }
    expect(corpusSiteNames).toContain('mdn-backgrounds');
  });
});
