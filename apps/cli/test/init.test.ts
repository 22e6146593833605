// `galley init`: every medium of the catalog gives a folder that passes `galley check`; a folder
// that is not empty, or a file, is refused before anything is written. And the complete example
// folder the docs link (examples/site) passes too. `--version` says the package's version.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mediaCatalog } from '@galley/core';
import { directoryOf, galley, oneErrorLine, removeDirectory, repo } from './support/galley.js';

vi.setConfig({ testTimeout: 120_000 });

let parent: string;
beforeAll(async () => {
  parent = await directoryOf({});
});
afterAll(() => removeDirectory(parent));

describe('galley init', () => {
  it.each(mediaCatalog.map((m) => [m.id]))(
    '--medium %s makes a folder that passes check',
    async (id) => {
      const dir = join(parent, `new-${id}`);
      const made = await galley(['init', dir, '--medium', id]);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain(`Next: galley check ${dir}`);
      expect((await readdir(dir)).sort()).toEqual(['index.html', 'project.json', 'style.css']);
      const project = JSON.parse(await readFile(join(dir, 'project.json'), 'utf8')) as {
        media: unknown;
        title: string;
      };
      expect(project.media).toEqual({ id, version: 1 });
      expect(project.title).toBe(`new-${id}`);
      const checked = await galley(['check', dir, '--json']);
      expect(checked.code, checked.stdout).toBe(0);
      expect(JSON.parse(checked.stdout)).toMatchObject({ violations: [] });
    },
  );

  it('uses the web medium and the current folder when given neither', async () => {
    const dir = join(parent, 'here');
    await mkdir(dir);
    const made = await galley(['init'], { cwd: dir });
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'project.json'), 'utf8'))).toMatchObject({
      media: { id: 'web', version: 1 },
      title: 'here',
    });
  });

  it('refuses a folder that is not empty, a file, an unknown medium: one line, exit 2', async () => {
    const full = join(parent, 'full');
    await directoryOf({ 'notes.txt': 'mine' }, full);
    const file = join(parent, 'a-file');
    await writeFile(file, 'x');
    const cases: Array<[string[], RegExp]> = [
      [
        ['init', full],
        /^galley: .*full is not empty \(it holds notes\.txt\); give a new or empty folder\n$/,
      ],
      [['init', file], /^galley: .*a-file is a file; give a new or empty folder\n$/],
      [
        ['init', join(parent, 'x'), '--medium', 'poster'],
        /--medium poster is not in the media catalog; give one of web, banner/,
      ],
    ];
    for (const [args, line] of cases) {
      const run = await galley(args);
      expect(run.code).toBe(2);
      expect(oneErrorLine(run)).toBe(true);
      expect(run.stderr).toMatch(line);
    }
    expect(await readdir(full)).toEqual(['notes.txt']);
    expect(await readdir(parent)).not.toContain('x');
  });
});

it('the example folder the docs link passes galley check', async () => {
  const run = await galley(['check', join(repo, 'examples/site')]);
  expect(run.code, run.stdout).toBe(0);
  expect(run.stdout).toMatch(/: passed\n/);
});

it('galley --version prints the package version', async () => {
  const { version } = JSON.parse(await readFile(join(repo, 'apps/cli/package.json'), 'utf8')) as {
    version: string;
  };
  for (const flag of ['--version', '-V']) {
    const run = await galley([flag]);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  }
});
