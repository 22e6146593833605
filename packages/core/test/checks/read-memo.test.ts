import { describe, expect, it } from 'vitest';
import { checkFolder } from '@galley/core';
import { createFileReaders, createReadMemo } from '../../src/files/readers.js';
import { html, png, projectJson, utf8 } from './fixtures.js';

// The screen checks a draft's folder after every change with one memo: what a check reads goes
// into it, and a check given it reports exactly what it reports reading alone.
describe('the read memo', () => {
  const folder = new Map([
    ['project.json', utf8(projectJson(['index.html']))],
    ['index.html', utf8(html({ body: '<img src="a.png" alt="A"><a href="#gone">x</a>' }))],
    ['style.css', utf8('a { background: url(missing.png) } b { background: url(a.png) }')],
    ['a.png', png(20_000, 20_000)],
  ]);

  it('reads a page, a style sheet and an image size once, and the report is the same', () => {
    const memo = createReadMemo();
    const alone = checkFolder(folder);
    expect(JSON.stringify(checkFolder(folder, { memo }))).toBe(JSON.stringify(alone));
    expect(memo.pages.get(folder.get('index.html')!)).toBeDefined();
    expect(memo.styleSheets.get(folder.get('style.css')!)?.map((r) => r.url)).toEqual([
      'missing.png',
      'a.png',
    ]);
    expect(memo.dimensions.get(folder.get('a.png')!)?.result).toEqual({
      status: 'read',
      size: { width: 20_000, height: 20_000 },
    });
    expect(alone.violations.map((v) => v.code)).toEqual(
      expect.arrayContaining(['links.missing', 'formats.dimensions']),
    );
    expect(JSON.stringify(checkFolder(folder, { memo }))).toBe(JSON.stringify(alone));
  });

  it('reads the same bytes again under another format', () => {
    const memo = createReadMemo();
    const bytes = folder.get('a.png')!;
    createFileReaders(new Map([['a.png', bytes]]), memo).dimensions('a.png');
    const readers = createFileReaders(new Map([['b.gif', bytes]]), memo);
    // Not the size the memo holds for these bytes as a PNG: as a GIF they are unreadable.
    expect(readers.dimensions('b.gif')).toEqual({ status: 'unreadable' });
    expect(memo.dimensions.get(bytes)).toEqual({ format: 'gif', result: { status: 'unreadable' } });
  });
});
