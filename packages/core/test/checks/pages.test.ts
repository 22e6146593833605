import { describe, expect, it } from 'vitest';
import { checkFolder } from '@galley/core';
import { html, webFolder } from './fixtures.js';

const pagesOf = (files: Record<string, string>, pages?: Parameters<typeof webFolder>[1]) =>
  checkFolder(webFolder(files, pages)).violations.filter((v) => v.check === 'pages');

describe('pages check', () => {
  it('passes listed pages with titles and unique ids', () => {
    expect(
      pagesOf({ 'about/index.html': html({ body: '<p id="a"></p><p id="b"></p>' }) }, [
        'index.html',
        { file: 'about/index.html', public_url: '/about/' },
      ]),
    ).toEqual([]);
  });

  it('needs a non-empty title outside inline SVG', () => {
    const page = '<!doctype html><title> </title><svg><title>icon</title></svg>';
    expect(pagesOf({ 'index.html': page })).toEqual([
      expect.objectContaining({ code: 'pages.title_missing', line: 1, column: 16 }),
    ]);
    expect(pagesOf({ 'index.html': '<body><svg><title>icon</title></svg></body>' })).toEqual([
      expect.objectContaining({ code: 'pages.title_missing' }),
    ]);
  });

  it('reports a repeated id on the repeat, as @n (#id names the first)', () => {
    const body = '<main id="m">\n<p id="x">one</p>\n<p id="x">two</p>\n</main>';
    expect(pagesOf({ 'index.html': html({ body }) })).toEqual([
      expect.objectContaining({
        code: 'pages.duplicate_id',
        element: '@3',
        line: 9,
        column: 1,
        actual: 'x',
      }),
    ]);
  });

  it('lists each HTML file once, each with its own URL', () => {
    const found = pagesOf({ 'a.html': html(), 'b.html': html(), 'orphan.html': html() }, [
      'index.html',
      'a.html',
      'a.html',
      { file: 'b.html', public_url: '/a.html' },
      'gone.html',
    ]);
    expect(found.map((v) => [v.path, v.code])).toEqual([
      ['a.html', 'pages.listed_twice'],
      ['b.html', 'pages.url_conflict'],
      ['gone.html', 'pages.missing'],
      ['orphan.html', 'pages.unlisted'],
    ]);
  });
});
