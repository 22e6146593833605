import { describe, expect, it } from 'vitest';
import { checkFolder } from '@galley/core';
import { html, png, webFolder } from './fixtures.js';

const linksOf = (
  files: Record<string, string | Uint8Array>,
  pages?: Parameters<typeof webFolder>[1],
) => checkFolder(webFolder(files, pages)).violations.filter((v) => v.check === 'links');
const codesOf = (files: Record<string, string | Uint8Array>) =>
  linksOf(files).map((v) => [v.code, v.actual]);

describe('links check', () => {
  it('resolves relative, root-relative, folder, encoded and query-carrying references', () => {
    const body = [
      '<a href="about/">About</a>',
      '<a href="about">About</a>',
      '<a href="/">Home</a>',
      '<a href="./?q=1#top">Home</a>',
      '<img src="img/a%20b.png" alt="">',
      '<img src="/img/a%20b.png?v=2#x" alt="">',
      '<a href="#main">skip</a><a href="">self</a>',
      '<a href="mailto:a@b.c">mail</a><a href="tel:1">tel</a><a href="javascript:void 0">js</a>',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="">',
    ].join('\n');
    const files = {
      'index.html': html({ body }),
      'about/index.html': html({
        body: '<a href="../index.html">back</a><img src="../img/a b.png">',
      }),
      'img/a b.png': png(1, 1),
    };
    expect(
      linksOf(files, ['index.html', { file: 'about/index.html', public_url: '/about/' }]),
    ).toEqual([]);
  });

  it('finds missing local files in every attribute that references one', () => {
    const body = [
      '<img src="a.png" srcset="b.png 1x, c.png 2x" alt="">',
      '<picture><source srcset="d.webp 480w,e.webp 800w"></picture>',
      '<video src="f.mp4" poster="g.png"></video>',
      '<a href="h.html">h</a><iframe src="i.html"></iframe><object data="j.pdf"></object>',
    ].join('\n');
    expect(
      codesOf({ 'index.html': html({ head: '<link rel="stylesheet" href="s.css">', body }) }),
    ).toEqual(
      [
        's.css',
        'a.png',
        'b.png',
        'c.png',
        'd.webp',
        'e.webp',
        'f.mp4',
        'g.png',
        'h.html',
        'i.html',
        'j.pdf',
      ].map((url) => ['links.missing', url]),
    );
  });

  it('places each finding: element as #id or @n, line and column', () => {
    const page =
      '<!doctype html>\n<html><head><title>t</title>\n<link rel="icon" href="fav.ico"></head>\n<body>\n  <div id="hero"><img src="x.png" alt=""></div>\n  <img id="hero" src="y.png">\n</body></html>';
    expect(linksOf({ 'index.html': page })).toEqual([
      expect.objectContaining({ line: 3, column: 1, actual: 'fav.ico' }),
      expect.objectContaining({ element: '@2', line: 5, column: 18, actual: 'x.png' }),
      expect.objectContaining({ element: '@3', line: 6, column: 3, actual: 'y.png' }),
    ]);
    expect(linksOf({ 'index.html': page })[0]).not.toHaveProperty('element'); // in <head>
  });

  it('reads url() and @import in style sheets, <style> and style attributes, with positions', () => {
    const css =
      '@import "base.css";\n/* url(commented.png) */\nbody { background: url( "bg.png" ) }\n.a { mask: url(#m) }\n@font-face { src: url(f.woff2) format("woff2"), url(data:font/woff2;base64,AA==) }';
    const found = linksOf({
      'css/site.css': css,
      'css/base.css': '',
      'index.html': html({
        head: '<style>\n p { background: url(css/p.png) }\n</style>',
        body: '<p style="background:url(\'q.png\')">x</p>',
      }),
    });
    expect(found.map((v) => [v.path, v.actual, v.line, v.column])).toEqual([
      ['css/site.css', 'bg.png', 3, 20],
      ['css/site.css', 'f.woff2', 5, 19],
      ['index.html', 'css/p.png', 6, 18],
      ['index.html', 'q.png', 9, 1],
    ]);
    expect(found[0]).toMatchObject({ expected: 'css/bg.png' });
  });

  it('refuses resources loaded from another origin, not links to it', () => {
    const head = [
      '<script src="https://cdn.example/x.js"></script>',
      '<link rel="stylesheet" href="//fonts.example/css">',
      '<link rel="preconnect" href="https://fonts.example">',
      '<link rel="canonical" href="https://example.com/">',
      '<link rel="alternate" hreflang="de" href="https://example.de/">',
    ].join('\n');
    const body = '<a href="https://example.com/">out</a><img src="http://img.example/a.png">';
    const found = linksOf({
      'index.html': html({ head, body }),
      'a.css': '@import url("https://x.example/y.css");',
    });
    expect(found.map((v) => [v.path, v.code, v.actual])).toEqual([
      ['a.css', 'links.external', 'https://x.example/y.css'],
      ['index.html', 'links.external', 'https://cdn.example/x.js'],
      ['index.html', 'links.external', '//fonts.example/css'],
      ['index.html', 'links.external', 'https://fonts.example'],
      ['index.html', 'links.external', 'http://img.example/a.png'],
    ]);
  });

  it('refuses references above the folder root and undecodable ones', () => {
    expect(
      codesOf({
        'index.html': html({ body: '<a href="../../etc/passwd">x</a><img src="%E0%A4%A.png">' }),
      }),
    ).toEqual([
      ['links.missing', '%E0%A4%A.png'],
      ['links.outside', '../../etc/passwd'],
    ]);
  });
});
