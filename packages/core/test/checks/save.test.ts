import { describe, expect, it } from 'vitest';
import { blocksSave, checkFolder, checkSave } from '@galley/core';
import { html, projectJson, utf8 } from './fixtures.js';

const saved = new Map([
  ['project.json', utf8(projectJson())],
  ['index.html', utf8(html())],
]);

describe('checkSave', () => {
  it('checks the saved folder with the draft at the page, leaving the folder as it was', () => {
    const draft = html().replace('</body>', '<a href="missing.html">gone</a></body>');
    const report = checkSave({ folder: saved, file: 'index.html', html: draft });
    expect(report.violations.map((v) => v.code)).toContain('links.missing');
    expect(blocksSave(report)).toBe(true);
    expect(checkFolder(saved).violations).toEqual([]);
    expect(saved.get('index.html')).toEqual(utf8(html()));
  });

  it('passes an unchanged page exactly as checkFolder does', () => {
    const report = checkSave({ folder: saved, file: 'index.html', html: html() });
    expect(JSON.stringify(report)).toBe(JSON.stringify(checkFolder(saved)));
    expect(blocksSave(report)).toBe(false);
  });
});
