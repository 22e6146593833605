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

  it('reads url() and @import written with CSS escapes, as browsers do', () => {
    const sheet = 'body{background:u\\72l(https://evil.example/a.png)}';
    const found = linksOf({
      'index.html': html({
        head: `<style>${sheet}</style><link rel="stylesheet" href="a.css">`,
        body: '<p style="background:U\\52 L(https://evil.example/b.png)">x</p>',
      }),
      'a.css': `@\\69mport "https://evil.example/c.css";\n${sheet}`,
      'b.css': 'a{b:image-set("https://evil.example/d.png" 1x, "missing.png" 2x)}',
    });
    expect(found.map((v) => [v.path, v.code, v.actual, v.line])).toEqual([
      ['a.css', 'links.external', 'https://evil.example/c.css', 1],
      ['a.css', 'links.external', 'https://evil.example/a.png', 2],
      ['b.css', 'links.external', 'https://evil.example/d.png', 1],
      ['b.css', 'links.missing', 'missing.png', 1],
      ['index.html', 'links.external', 'https://evil.example/a.png', 5],
      ['index.html', 'links.external', 'https://evil.example/b.png', 7],
    ]);
  });

  it('reads the href of SVG elements, whatever prefix XLink is bound to', () => {
    const body = [
      '<svg xmlns:q="http://www.w3.org/1999/xlink"><symbol id="icon"/>',
      '<script href="https://evil.example/a.js"></script>',
      '<script xlink:href="https://evil.example/b.js"></script>',
      '<script q:href="https://evil.example/c.js"></script>',
      '<script href="nope.js"></script>',
      '<image href="https://evil.example/d.png"/><use xlink:href="sprite.svg#icon"/>',
      '<filter id="f"><feImage href="https://evil.example/e.png"/></filter>',
      '<use href="#icon"/><a xlink:href="https://example.org/"><text>out</text></a>',
      '<a q:href="gone.html"><text>gone</text></a>',
      '</svg>',
    ].join('\n');
    expect(codesOf({ 'index.html': html({ body }) })).toEqual([
      ['links.external', 'https://evil.example/a.js'],
      ['links.external', 'https://evil.example/b.js'],
      ['links.external', 'https://evil.example/c.js'],
      ['links.external', 'https://evil.example/d.png'],
      ['links.external', 'https://evil.example/e.png'],
      ['links.missing', 'nope.js'],
      ['links.missing', 'sprite.svg#icon'],
      ['links.missing', 'gone.html'],
    ]);
  });

  it('reads the legacy background attribute of <body> and table elements', () => {
    const table =
      '<table background="https://evil.example/a.png"><tbody background="b.png">' +
      '<tr background="https://evil.example/c.png"><th background="d.png">h</th>' +
      '<td background="https://evil.example/e.png">x</td></tr></tbody></table>';
    const page = html({ body: table }).replace('<body>', '<body background="bg.png">');
    expect(codesOf({ 'index.html': page, 'bg.png': png(1, 1) })).toEqual([
      ['links.external', 'https://evil.example/a.png'],
      ['links.external', 'https://evil.example/c.png'],
      ['links.external', 'https://evil.example/e.png'],
      ['links.missing', 'b.png'],
      ['links.missing', 'd.png'],
    ]);
    const missing = html().replace('<body>', '<body background="nope.png">');
    expect(codesOf({ 'index.html': missing })).toEqual([['links.missing', 'nope.png']]);
  });

  it('reads the imagesrcset of a <link> as a srcset, loaded as its rel says', () => {
    const head = [
      '<link rel="preload" as="image" imagesrcset="a.png 1x, https://evil.example/b.png 2x" imagesizes="50vw">',
      '<link rel="preload" as="image" imagesrcset="nope.png 480w">',
      '<link rel="alternate" imagesrcset="https://example.org/c.png 1x">',
    ].join('\n');
    expect(codesOf({ 'index.html': html({ head }), 'a.png': png(1, 1) })).toEqual([
      ['links.external', 'https://evil.example/b.png'],
      ['links.missing', 'nope.png'],
    ]);
  });

  describe('<base href>', () => {
    const page = (base: string, body: string, head = '') =>
      html({ head: `<base href="${base}">${head}`, body });

    it('an external base makes every relative resource external, not links', () => {
      const body = [
        '<img src="a.png" srcset="a.png 2x" alt="">',
        '<img src="/a.png" alt=""><img src="?v=1" alt="">',
        '<p style="background:url(a.png)">x</p>',
        '<a href="a.png">link</a><a href="#top">top</a><img src="data:image/png;base64,AA==">',
      ].join('\n');
      const found = linksOf({
        'index.html': page('https://evil.example/', body, '<link rel="stylesheet" href="s.css">'),
        'a.png': png(1, 1),
        's.css': 'body{background:url(a.png)}',
      });
      expect(found.map((v) => [v.code, v.actual, v.line])).toEqual([
        ['links.external', 's.css', 5],
        ['links.external', 'a.png', 7], // src and srcset: one finding
        ['links.external', '/a.png', 8],
        ['links.external', '?v=1', 8],
        ['links.external', 'a.png', 9],
      ]);
      expect(found[1]?.message).toContain('<base href="https://evil.example/">');
    });

    it('a local base is what relative references resolve against', () => {
      const files = {
        'index.html': page('img/', '<img src="a.png" alt=""><img src="/b.png" alt="">'),
        'img/a.png': png(1, 1),
        'b.png': png(1, 1),
        'sub/index.html': page('../img/x.html', '<img src="a.png" alt=""><a href="a.png">a</a>'),
      };
      expect(linksOf(files, ['index.html', 'sub/index.html'])).toEqual([]);
      const missing = linksOf({ 'index.html': page('img/', '<img src="b.png" alt="">') });
      expect(missing).toEqual([
        expect.objectContaining({ code: 'links.missing', actual: 'b.png', expected: 'img/b.png' }),
      ]);
    });

    it('only the first base with an href counts', () => {
      const head = '<base target="_top"><base href="img/"><base href="https://evil.example/">';
      const files = {
        'index.html': html({ head, body: '<img src="a.png" alt="">' }),
        'img/a.png': png(1, 1),
      };
      expect(linksOf(files)).toEqual([]);
    });

    it('a base that is empty, a fragment or of a scheme without a path changes nothing', () => {
      for (const base of ['', '#top', 'data:text/html,x', 'javascript:void 0']) {
        const files = { 'index.html': page(base, '<img src="a.png" alt="">'), 'a.png': png(1, 1) };
        expect(linksOf(files)).toEqual([]);
      }
    });

    it('a base above the folder root is itself refused', () => {
      const found = linksOf({
        'index.html': page('../../', '<img src="a.png" alt="">'),
        'a.png': png(1, 1),
      });
      expect(found).toEqual([
        expect.objectContaining({ code: 'links.outside', actual: '../../', line: 5 }),
      ]);
    });

    it('style sheets resolve against themselves, whatever the page base', () => {
      const files = {
        'index.html': page('https://evil.example/', '', '<link rel="stylesheet" href="/s.css">'),
        's.css': 'body{background:url(a.png)}',
        'a.png': png(1, 1),
      };
      expect(codesOf(files)).toEqual([['links.external', '/s.css']]);
    });
  });

  it('reads URLs as the URL parser does: tabs and newlines dropped, backslashes as slashes', () => {
    const body =
      '<img src="ht&#9;tps://evil.example/a.png" alt=""><img src="/\\evil.example/b.png">';
    const files = {
      'index.html': html({ body: `${body}<img src="img\\a.png" alt="">` }),
      'img/a.png': png(1, 1),
    };
    expect(codesOf(files)).toEqual([
      ['links.external', 'ht\ttps://evil.example/a.png'],
      ['links.external', '/\\evil.example/b.png'],
    ]);
  });
});
