import { describe, expect, it } from 'vitest';
import { checkFolder } from '@galley/core';
import { folderOf, html, projectJson } from './fixtures.js';

describe('project check', () => {
  it('without project.json, checks that need the project are unchecked, not passed', () => {
    const report = checkFolder(folderOf({ 'index.html': html() }));
    expect(report.checks).toMatchObject({
      project: 'failed',
      pages: 'unchecked',
      canvas: 'unchecked',
      formats: 'unchecked',
      names: 'passed',
      links: 'passed',
    });
    expect(report.violations).toEqual([
      expect.objectContaining({ code: 'project.missing', path: 'project.json' }),
    ]);
  });

  it('a content problem still fails formats when the medium is unknown', () => {
    const report = checkFolder(folderOf({ 'index.html': html(), 'a.png': 'not a png' }));
    expect(report.checks.formats).toBe('failed');
  });

  it('reports each schema error with its JSON pointer, in a stable order', () => {
    const text = JSON.stringify({ format: 2, title: '', media: { id: 'web' }, pages: [], x: 1 });
    const report = checkFolder(folderOf({ 'project.json': text }));
    const messages = report.violations
      .filter((v) => v.code === 'project.schema')
      .map((v) => v.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'project.json / must NOT have additional properties: x',
        'project.json /format must be equal to constant',
        "project.json /media must have required property 'version'",
        'project.json /pages must NOT have fewer than 1 items',
        'project.json /title must NOT have fewer than 1 characters',
      ]),
    );
    expect(checkFolder(folderOf({ 'project.json': text }))).toEqual(report);
  });

  it('refuses JSON that is not UTF-8, with a message that does not depend on the engine', () => {
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const report = checkFolder(new Map([['project.json', bytes]]));
    expect(report.violations[0]).toMatchObject({
      code: 'project.json',
      message: 'project.json is not valid JSON in UTF-8.',
    });
  });

  it('names the unknown medium in actual', () => {
    const report = checkFolder(
      folderOf({ 'project.json': projectJson(['index.html'], 'web'), 'index.html': html() }),
    );
    expect(report.checks.project).toBe('passed');
    const unknown = checkFolder(
      folderOf({
        'project.json': projectJson(['index.html']).replace('"version":1', '"version":7'),
        'index.html': html(),
      }),
    );
    expect(unknown.violations).toEqual([
      expect.objectContaining({
        code: 'project.medium_unknown',
        actual: { id: 'web', version: 7 },
      }),
    ]);
  });

  it('refuses a control character in the project title, and still checks the rest', () => {
    // Page titles are kept inside JSON, not as a store's text: a tab there is left alone.
    const json = JSON.parse(
      projectJson([{ file: 'index.html' }, { file: 'about.html', title: 'About\tus' }]),
    ) as { title: string };
    json.title = 'T\u0000x';
    const folder = folderOf({
      'project.json': JSON.stringify(json),
      'index.html': html(),
      'about.html': html(),
    });
    const report = checkFolder(folder);
    expect(report.checks).toMatchObject({ project: 'failed', pages: 'passed', links: 'passed' });
    expect(report.violations).toEqual([
      {
        check: 'project',
        code: 'project.title_control',
        severity: 'error',
        path: 'project.json',
        message: 'project.json /title contains the control character U+0000.',
        actual: 'U+0000',
        suggestion: expect.stringContaining('Remove control characters') as unknown,
      },
    ]);
  });

  it('lets titles with any other character pass, C1 controls and DEL excepted', () => {
    const withTitle = (title: string) =>
      checkFolder(
        folderOf({
          'project.json': projectJson(['index.html']).replace(
            '"title":"Test"',
            `"title":${JSON.stringify(title)}`,
          ),
          'index.html': html(),
        }),
      ).violations.map((v) => v.actual);
    expect(withTitle('Ünïcødé — 写真 \u00a0 \u200b \ud83d\ude00')).toEqual([]);
    expect(withTitle('a\u007f')).toEqual(['U+007F']);
    expect(withTitle('a\u0085')).toEqual(['U+0085']);
  });
});
