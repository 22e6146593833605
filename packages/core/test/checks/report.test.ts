import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckReport, checkFolder, violation, type Folder } from '@galley/core';
import { html, png, projectJson, utf8 } from './fixtures.js';

describe('check report', () => {
  it('has exactly the shape of decisions §4, every check named, archive included', () => {
    const report = checkFolder(new Map([['index.html', utf8(html())]]));
    expect(CheckReport.strict().parse(report)).toEqual(report);
    expect(Object.keys(report.checks)).toEqual([
      'archive',
      'limits',
      'names',
      'project',
      'formats',
      'pages',
      'links',
      'canvas',
    ]);
    expect(report.contracts).toEqual({ 'media-contract': '1.0', 'svc-contract': '1.0' });
  });

  it('merges findings made before the folder (readZip), without duplicates', () => {
    const before = [
      violation('archive.crc_mismatch', { path: 'b.png' }),
      violation('names.traversal', { path: '../x' }),
      violation('names.traversal', { path: '../x' }),
    ];
    const folder = new Map([
      ['project.json', utf8(projectJson())],
      ['index.html', utf8(html())],
    ]);
    const report = checkFolder(folder, { preViolations: before });
    expect(report.checks).toMatchObject({ archive: 'failed', names: 'failed', pages: 'passed' });
    expect(report.violations.map((v) => [v.path, v.code])).toEqual([
      ['../x', 'names.traversal'],
      ['b.png', 'archive.crc_mismatch'],
    ]);
  });

  it('orders violations by path, code, line and column', () => {
    const folder = new Map([
      ['project.json', utf8(projectJson(['index.html', 'b.html']))],
      [
        'index.html',
        utf8(html({ body: '<img src="z.png">\n<img src="a.png">\n<p id="d"></p><p id="d"></p>' })),
      ],
      ['b.html', utf8('<p>')],
      ['a.PNG', png(1, 1)],
    ]);
    const report = checkFolder(folder);
    const keys = report.violations.map((v) => [v.path, v.code, v.line ?? 0]);
    expect(keys).toEqual([
      ['a.PNG', 'names.characters', 0],
      ['b.html', 'pages.title_missing', 0],
      ['index.html', 'links.missing', 7],
      ['index.html', 'links.missing', 8],
      ['index.html', 'pages.duplicate_id', 9],
    ]);
  });

  it('gives byte-equal JSON for equal folders, whatever their entry order (property)', () => {
    const fileName = fc.stringMatching(/^[a-zA-Z0-9 ._-]{1,12}$/);
    const content = fc.oneof(
      fc.constantFrom(
        html(),
        html({ body: '<img src="x.png"><p id="a"></p><p id="a"></p>' }),
        '<p>',
        'body{background:url(q.png)}',
      ),
      fc.uint8Array({ maxLength: 64 }),
      fc.constant(png(300, 250)),
    );
    const files = fc.dictionary(fileName, content, { maxKeys: 8 }).map((entries) => ({
      'project.json': projectJson(['index.html'], 'banner'),
      ...entries,
    }));
    fc.assert(
      fc.property(files, fc.func(fc.integer()), (entries, shuffle) => {
        const pairs = Object.entries(entries).map(
          ([p, c]) => [p, typeof c === 'string' ? utf8(c) : c] as const,
        );
        const shuffled = [...pairs].sort((a, b) => shuffle(a[0]) - shuffle(b[0]));
        const one: Folder = new Map(pairs);
        const other: Folder = new Map(shuffled.map(([p, c]) => [p, c.slice()]));
        expect(JSON.stringify(checkFolder(other))).toBe(JSON.stringify(checkFolder(one)));
      }),
      { numRuns: 200 },
    );
  });
});
