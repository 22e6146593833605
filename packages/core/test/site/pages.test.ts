import { describe, expect, it } from 'vitest';
import { convertSite } from '@galley/core';
import { converted, folderOf, page, textOf } from './helpers.js';

const project = (folder: ReadonlyMap<string, Uint8Array>): unknown =>
  JSON.parse(textOf(folder, 'project.json'));

describe('project.json', () => {
  it('is web 1, titled from index.html, listing every page with its title and URL', () => {
    const result = converted(
      convertSite(
        folderOf({
          'site/index.html': page('  The\n Shop  &amp; Co '),
          'site/b.html': page('Bee'),
          'site/a/index.html': page('Ay'),
        }),
      ),
    );
    expect(result.title).toBe('The Shop & Co');
    expect(project(result.folder)).toEqual({
      format: 1,
      title: 'The Shop & Co',
      media: { id: 'web', version: 1 },
      pages: [
        { file: 'index.html', title: 'The Shop & Co', public_url: '/' },
        { file: 'a/index.html', title: 'Ay', public_url: '/a/' },
        { file: 'b.html', title: 'Bee', public_url: '/b.html' },
      ],
    });
  });

  it('gives byte-equal folders and reports for equal sites, whatever the entry order', () => {
    const files = {
      'index.html': page('Home', '<img src="Pic 1.png"><a href="gone.html">x</a>'),
      'Pic 1.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      'z.html': '<p>no title</p>',
    };
    const reversed = Object.fromEntries(Object.entries(files).reverse());
    const a = convertSite(folderOf(files));
    const b = convertSite(folderOf(reversed));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect([...(b.ok ? b.folder : [])]).toEqual([...(a.ok ? a.folder : [])]);
  });
});

describe('site.title_missing: a page without <title> gets one', () => {
  it('takes the first <h1>, else the file name, and says so', () => {
    const result = converted(
      convertSite(
        folderOf({
          'index.html':
            '<!doctype html>\n<html><head><meta charset="utf-8"></head><body><h1> Welcome <em>home</em></h1></body></html>',
          'contact-us.html': '<p>Write to us</p>',
          'blog/index.html': '<html><title>  </title><h1></h1><h1>Posts</h1></html>',
          'svg.html': '<!DOCTYPE html><svg><title>icon</title></svg>',
        }),
      ),
    );
    expect(textOf(result.folder, 'index.html')).toBe(
      '<!doctype html>\n<html><head><title>Welcome home</title><meta charset="utf-8"></head><body><h1> Welcome <em>home</em></h1></body></html>',
    );
    expect(textOf(result.folder, 'contact-us.html')).toBe(
      '<title>contact-us</title><p>Write to us</p>',
    );
    expect(textOf(result.folder, 'blog/index.html')).toBe(
      '<html><title>Posts</title><h1></h1><h1>Posts</h1></html>',
    );
    expect(textOf(result.folder, 'svg.html')).toBe(
      '<!DOCTYPE html><title>svg</title><svg><title>icon</title></svg>',
    );
    expect(result.title).toBe('Welcome home');
    expect(result.site.warnings.map((w) => [w.code, w.path, w.target])).toEqual([
      ['site.title_missing', 'blog/index.html', 'Posts'],
      ['site.title_missing', 'contact-us.html', 'contact-us'],
      ['site.title_missing', 'index.html', 'Welcome home'],
      ['site.title_missing', 'svg.html', 'svg'],
    ]);
  });

  it('names the home page after the wrapping folder, or Home, and escapes the text', () => {
    const wrapped = converted(convertSite(folderOf({ 'My <Site>/index.html': '<p>x</p>' })));
    expect(wrapped.title).toBe('My <Site>');
    expect(textOf(wrapped.folder, 'index.html')).toBe('<title>My &lt;Site&gt;</title><p>x</p>');
    expect(converted(convertSite(folderOf({ 'index.html': '<p>x</p>' }))).title).toBe('Home');
  });

  it('adds the title where a removed link began', () => {
    const source =
      '<html><head><link rel="next" href="gone.html"></head><body><h1>Hi</h1></body></html>';
    const result = converted(convertSite(folderOf({ 'index.html': source })));
    expect(textOf(result.folder, 'index.html')).toBe(
      '<html><head><title>Hi</title></head><body><h1>Hi</h1></body></html>',
    );
  });

  it('cuts a title at 200 characters', () => {
    const result = converted(convertSite(folderOf({ 'index.html': page('é'.repeat(300)) })));
    expect(result.title).toBe('é'.repeat(200));
  });
});

describe('duplicate ids', () => {
  it('renames the later ones so the page passes the pages check (site.id_renamed)', () => {
    const body = '<p id="a">1</p><p id="a">2</p><p id="a-2">3</p><p id=\'a\'>4</p>';
    const result = converted(convertSite(folderOf({ 'index.html': page('Home', body) })));
    expect(textOf(result.folder, 'index.html')).toBe(
      page('Home', '<p id="a">1</p><p id="a-3">2</p><p id="a-2">3</p><p id="a-4">4</p>'),
    );
    expect(result.site.warnings.map((w) => [w.code, w.target, w.actual])).toEqual([
      ['site.id_renamed', 'a-3', 'a'],
      ['site.id_renamed', 'a-4', 'a'],
    ]);
  });
});
