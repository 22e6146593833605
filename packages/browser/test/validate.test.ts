import { describe, expect, it } from 'vitest';
import { checkFolder, writeZip } from '@galley/core';
import { blocksSave, folderWithPage, readSavedFolder, validateBeforeSave } from '@galley/browser';
import { folderOf, page, projectJson, utf8 } from './fixtures.js';

const saved = folderOf({
  'project.json': projectJson(['index.html', 'about.html']),
  'index.html': page('<p id="intro">Hello <a href="about.html">about</a></p>'),
  'about.html': page('<p>About</p>', 'About'),
  'style.css': 'p { color: red }',
});

describe('validateBeforeSave', () => {
  it('passes the saved folder with an unchanged page', () => {
    const report = validateBeforeSave({
      folder: saved,
      file: 'index.html',
      html: new TextDecoder().decode(saved.get('index.html')),
    });
    expect(blocksSave(report)).toBe(false);
    expect(report.violations).toEqual([]);
  });

  it('judges the draft HTML at the page file: a link to a missing file blocks the save', () => {
    const html = page('<p id="intro">Hello <a href="gone.html">gone</a></p>');
    const report = validateBeforeSave({ folder: saved, file: 'index.html', html });
    expect(blocksSave(report)).toBe(true);
    expect(report.checks.links).toBe('failed');
    expect(report.violations.map((v) => [v.code, v.path])).toContainEqual([
      'links.missing',
      'index.html',
    ]);
  });

  it('is checkFolder on the folder with the page replaced (byte-equal JSON)', () => {
    const html = page('<h1 id="a">x</h1><h2 id="a">y</h2>', '');
    const mine = validateBeforeSave({ folder: saved, file: 'about.html', html });
    const direct = checkFolder(folderWithPage(saved, 'about.html', html));
    expect(JSON.stringify(mine)).toBe(JSON.stringify(direct));
    expect(mine.violations.map((v) => v.code)).toContain('pages.duplicate_id');
  });

  it('leaves the saved folder as it was', () => {
    validateBeforeSave({ folder: saved, file: 'index.html', html: 'changed' });
    expect(new TextDecoder().decode(saved.get('index.html'))).toContain('Hello');
  });

  it('encodes the HTML as UTF-8, as the server stores it', () => {
    const folder = folderWithPage(saved, 'index.html', 'é€😀');
    expect(folder.get('index.html')).toEqual(utf8('é€😀'));
  });

  it('reads the saved folder back from the export ZIP', () => {
    const { folder, violations } = readSavedFolder(writeZip(saved));
    expect(violations).toEqual([]);
    expect([...folder.keys()].sort()).toEqual([...saved.keys()].sort());
  });
});
