import { describe, expect, it } from 'vitest';
import { blocksSave, checkFolder, checkSave, createReadMemo } from '@galley/core';
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

  it('with a memo, reads the other pages once and reports exactly as without it', () => {
    const folder = new Map([
      ['project.json', utf8(projectJson(['index.html', 'about.html']))],
      ['index.html', utf8(html({ body: '<a href="about.html#team">About</a>' }))],
      ['about.html', utf8(html({ body: '<h1 id="team">Team</h1>' }))],
    ]);
    const memo = createReadMemo();
    const edits = [
      '<a href="about.html#team">About</a>',
      '<a href="about.html#nobody">About</a>',
      '<a href="gone.html">Gone</a>',
    ];
    for (const body of edits) {
      const input = { folder, file: 'index.html', html: html({ body }) };
      expect(JSON.stringify(checkSave({ ...input, memo }))).toBe(JSON.stringify(checkSave(input)));
      // The page that did not change was read from its bytes once, and is held by them.
      expect(memo.pages.has(folder.get('about.html')!)).toBe(true);
      expect(memo.texts.get(folder.get('about.html')!)).toContain('Team');
    }
    const about = memo.pages.get(folder.get('about.html')!);
    checkSave({ folder, file: 'index.html', html: html(), memo });
    expect(memo.pages.get(folder.get('about.html')!)).toBe(about);
  });
});
