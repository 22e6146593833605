// `galley check` as people and scripts run it: generated folders and ZIPs, the real corpus sites,
// exit codes 0/1/2, --json byte-equal to the core's report, and no progress unless on a terminal.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkFolder, checkZip, writeZip } from '@galley/core';
import {
  corpusMissing,
  corpusSiteNames,
  corpusSites,
  directoryOf,
  folderOf,
  galley,
  galleyOnTerminal,
  noTerminal,
  oneErrorLine,
  page,
  readTree,
  removeDirectory,
  validProject,
  zipped,
} from './support/galley.js';
import { largeFolder } from './support/large-folder.js';

// Every test spawns `galley` processes (about 1 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

const made: string[] = [];
async function directory(files: Parameters<typeof directoryOf>[0]) {
  const path = await directoryOf(files);
  made.push(path);
  return path;
}
afterAll(async () => {
  for (const path of made) await removeDirectory(path);
});

/** A folder with errors in two checks: a missing image (links) and a page without a title. */
const broken = validProject({
  'index.html': page('Home', '<img src="img/missing.png" alt="">\n<a href="about/">About</a>'),
  'about/index.html': '<!doctype html><html><head></head><body><p>About</p></body></html>\n',
});

describe('galley check on generated folders', () => {
  let scratch: string;
  let valid: string;
  beforeAll(async () => {
    scratch = await directory({});
    valid = await directory(validProject());
  });

  it('passes a valid directory and its ZIP: exit 0, every check listed, nothing on stderr', async () => {
    const zip = join(scratch, 'valid.zip');
    await writeFile(zip, writeZip(folderOf(validProject())));
    for (const path of [valid, zip]) {
      const run = await galley(['check', path]);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain(`${path}: passed`);
      for (const name of ['archive', 'limits', 'names', 'project', 'pages', 'links'])
        expect(run.stdout).toMatch(new RegExp(`✓ ${name}\\s+passed`));
      expect(run.stdout).not.toContain('\u001b['); // no colours when piped
    }
  });

  it('--json prints the core report byte for byte, for a directory and for a ZIP', async () => {
    const dir = await directory(broken);
    const zipPath = join(scratch, 'broken.zip');
    const zip = writeZip(folderOf(broken));
    await writeFile(zipPath, zip);
    const fromDir = await galley(['check', dir, '--json']);
    expect(fromDir.code).toBe(1);
    expect(fromDir.stdout).toBe(`${JSON.stringify(checkFolder(folderOf(broken)))}\n`);
    const fromZip = await galley(['check', zipPath, '--json']);
    expect(fromZip.code).toBe(1);
    expect(fromZip.stdout).toBe(`${JSON.stringify(checkZip(zip))}\n`);
    expect(fromZip.stderr).toBe('');
  });

  it('groups violations by check, with places, codes, messages and suggestions: exit 1', async () => {
    const report = checkFolder(folderOf(broken));
    const run = await galley(['check', await directory(broken)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed \(\d+ errors?/);
    const failedChecks = Object.entries(report.checks).filter(([, o]) => o === 'failed');
    expect(failedChecks.map(([name]) => name)).toEqual(expect.arrayContaining(['links', 'pages']));
    for (const [name] of failedChecks)
      expect(run.stdout).toMatch(new RegExp(`✗ ${name}\\s+failed`));
    // Every violation appears under its check's heading, in the report's order.
    let at = 0;
    for (const v of report.violations) {
      const heading = run.stdout.indexOf(`\n${v.check}\n`);
      expect(heading).toBeGreaterThan(0);
      const place = `${v.path}${v.line === undefined ? '' : `:${v.line}`}`;
      const found = run.stdout.indexOf(place, Math.max(at, heading));
      expect(found).toBeGreaterThan(heading);
      expect(run.stdout.indexOf(v.code, found)).toBeGreaterThan(found);
      expect(run.stdout).toContain(v.message);
      if (v.suggestion) expect(run.stdout).toContain(v.suggestion);
      at = found;
    }
    const missing = report.violations.find((v) => v.code === 'links.missing');
    expect(missing?.path).toBe('index.html');
    expect(run.stdout).toContain(`index.html:${missing?.line}`);
    // A reference that reads the same written and resolved is not shown as a contrast.
    const same = `expected ${String(missing?.expected)}, found ${String(missing?.actual)}`;
    expect(missing?.expected).toBe(missing?.actual);
    expect(run.stdout).not.toContain(same);
  });

  it('fails (exit 1) on an SVG without a size on a banner canvas: canvas.size_unknown', async () => {
    const files = {
      'project.json': JSON.stringify({
        format: 1,
        title: 'Banner',
        media: { id: 'banner', version: 1 },
        pages: [{ file: 'index.html', title: 'Ad', public_url: '/' }],
      }),
      'index.html': page(
        'Ad',
        '<img src="canvas/bg.svg" alt="">',
        '<meta name="viewport" content="width=300, height=250">',
      ),
      'canvas/bg.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>',
    };
    const report = checkFolder(folderOf(files));
    expect(report.violations.map((v) => [v.code, v.severity])).toEqual([
      ['canvas.size_unknown', 'error'],
    ]);
    const run = await galley(['check', await directory(files)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('failed (1 error)');
    expect(run.stdout).toMatch(/error\s+canvas\/bg\.svg\s+canvas\.size_unknown/);
  });

  it('judges hostile and broken ZIPs (exit 1), as the service would', async () => {
    const slip = join(scratch, 'slip.zip');
    const slipZip = writeZip(folderOf({ ...validProject(), '../evil.html': 'x' }));
    await writeFile(slip, slipZip);
    const run = await galley(['check', slip, '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`${JSON.stringify(checkZip(slipZip))}\n`);
    expect(run.stdout).toContain('"check":"names"');

    const notZip = join(scratch, 'not.zip');
    await writeFile(notZip, 'this is text, not a ZIP');
    const text = await galley(['check', notZip]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/✗ archive\s+failed/);
  });

  it('suggests convert only for what convert takes, with the path as one shell word', async () => {
    const hint = (path: string) =>
      `\nA plain site? \`galley convert ${path} -o project.zip\` makes a project of it.\n`;
    const empty = await directory({});
    const notSite = await galley(['check', empty]);
    expect(notSite.stdout).toMatch(/✗ project\s+failed/);
    expect(notSite.stdout).not.toContain('A plain site?');
    const wrapped = await directory({ 'site/index.html': page('Home', '<p>Hi</p>') });
    expect((await galley(['check', wrapped])).stdout.endsWith(hint(wrapped))).toBe(true);
    const spaced = join(await directory({}), "Tom's site");
    await directoryOf({ 'index.html': page('Home', '<p>Hi</p>') }, spaced);
    expect((await galley(['check', spaced])).stdout).toContain(
      hint(`'${spaced.replace("'", `'\\''`)}'`),
    );
  });

  it('reads a directory with nested folders, spaces, and symbolic links inside it', async () => {
    const files = validProject({ 'docs/read me.txt': 'hello' });
    const dir = await directory(files);
    await symlink('../style.css', join(dir, 'img', 'style-link.css'));
    const run = await galley(['check', dir, '--json']);
    const expected = checkFolder(folderOf({ ...files, 'img/style-link.css': files['style.css']! }));
    expect(run.stdout).toBe(`${JSON.stringify(expected)}\n`);
    expect(run.stdout).toContain('docs/read me.txt'); // the names check sees the real path
  });
});

describe('galley check on a large folder', () => {
  it('--json is the core report byte for byte, and the text report places every finding', async () => {
    const zip = zipped(largeFolder());
    expect(zip.length).toBeGreaterThan(1024 * 1024);
    const dir = await directory({});
    const zipPath = join(dir, 'large.zip');
    await writeFile(zipPath, zip);
    const report = checkZip(zip);
    const codes = new Set(report.violations.map((v) => v.code));
    for (const code of ['links.missing', 'pages.duplicate_id', 'pages.title_missing'])
      expect(codes).toContain(code);
    expect(codes).toContain('formats.encoding');
    expect(codes).toContain('pages.unlisted');
    const json = await galley(['check', zipPath, '--json']);
    expect(json).toMatchObject({ code: 1, stderr: '' });
    expect(json.stdout).toBe(`${JSON.stringify(report)}\n`);
    const text = await galley(['check', zipPath]);
    for (const v of report.violations)
      expect(text.stdout).toContain(`${v.path}${v.line === undefined ? '' : `:${v.line}`}`);
  });

  it('the same folder as a directory (over 1 MiB: zipped as push zips it) gives the same report', async () => {
    const folder = largeFolder();
    const dir = await directory(Object.fromEntries(folder));
    const json = await galley(['check', dir, '--json']);
    expect(json).toMatchObject({ code: 1, stderr: '' });
    expect(json.stdout).toBe(`${JSON.stringify(checkZip(zipped(folder)))}\n`);
  });
});

describe('galley check on unusable input: exit 2 and one line on stderr', () => {
  const refused = async (path: string, reason: RegExp) => {
    const run = await galley(['check', path]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(reason);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  };

  it('a path that does not exist', async () => {
    await refused('/nonexistent/folder.zip', /^galley: \/nonexistent\/folder\.zip: no such file/);
  });

  it('a symbolic link leading outside the folder, or to nothing, or in a loop', async () => {
    const outside = await directory(validProject());
    await symlink('/etc/hostname', join(outside, 'host.txt'));
    await refused(outside, /host\.txt is a symbolic link leading outside the folder/);
    const dangling = await directory(validProject());
    await symlink('nowhere.css', join(dangling, 'gone.css'));
    await refused(dangling, /gone\.css is a symbolic link to nothing/);
    const loop = await directory(validProject());
    await symlink('..', join(loop, 'about', 'up'));
    await refused(loop, /about\/up is a symbolic link to a folder above it/);
  });

  it('a pipe inside the folder (it would block a reader forever)', async () => {
    const dir = await directory(validProject());
    await mkdir(join(dir, 'io'));
    execFileSync('mkfifo', [join(dir, 'io', 'pipe')]);
    await refused(dir, /io\/pipe is not a regular file/);
  });

  it('no folder given at all (a usage error): one line, no usage text', async () => {
    const run = await galley(['check']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("galley: check: missing required argument 'folder'\n");
    expect(oneErrorLine(run)).toBe(true);
  });
});

const noCorpus = corpusMissing;
if (noCorpus) console.warn(`skipped: ${noCorpus}`);
describe.skipIf(!!noCorpus)('galley check on the corpus sites, read in place', () => {
  it.each(corpusSiteNames)(
    '%s: a plain site is no project folder (exit 1, the report of its ZIP)',
    async (name) => {
      const path = join(corpusSites, name);
      const run = await galley(['check', path, '--json']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe(`${JSON.stringify(checkZip(zipped(readTree(path))))}\n`);
      expect(run.stdout).toContain('"code":"project.missing"');
    },
  );

  it('names a missing file once, where it reads the same written and resolved', async () => {
    const run = await galley(['check', join(corpusSites, 'mdn-accessibility-assessment')]);
    expect(run.stdout).toContain(
      [
        'index.html:97:11 @62  links.missing',
        '           The reference names a file that is not in the folder.',
        '           found media/bear.mp3',
        '           → Add the file',
      ].join('\n'),
    );
  });
});

if (noTerminal) console.warn(`skipped: ${noTerminal}`);
describe.skipIf(!!noTerminal)('galley check on a terminal', () => {
  it('shows progress and colours on a terminal; piped, neither', async () => {
    const dir = await directory(broken);
    const shown = await galleyOnTerminal(['check', dir]);
    expect(shown.code).toBe(1);
    expect(shown.stdout).toContain(`checking ${dir}`); // the progress line, drawn then cleared
    expect(shown.stdout).toContain('\u001b[31m'); // red for failures
    const piped = await galley(['check', dir]);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toContain(`checking ${dir}`);
    expect(piped.stdout).not.toContain('\u001b[');
  });
});
