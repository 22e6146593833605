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
});
