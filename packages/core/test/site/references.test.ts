import { describe, expect, it } from 'vitest';
import { convertSite } from '@galley/core';
import { converted, folderOf, page, png, refused, textOf } from './helpers.js';

const codes = (violations: readonly { code: string; path: string; actual?: unknown }[]) =>
  violations.map((v) => [v.code, v.path, v.actual]);

describe('site.external: a page loads a resource from another origin', () => {
  it.each([
    ['script', '<script src="https://cdn.example/a.js"></script>'],
    ['style', '<link rel="stylesheet" href="//cdn.example/a.css">'],
    ['image', '<img src="http://img.example/a.png">'],
    ['image candidate', '<img src="a.png" srcset="a.png 1x, https://img.example/b.png 2x">'],
    ['iframe', '<iframe src="https://video.example/embed/1"></iframe>'],
    ['font (style element)', '<style>@font-face{src:url(https://f.example/a.woff2)}</style>'],
    ['CSS @import', '<style>@import "https://f.example/a.css";</style>'],
    ['style attribute', '<p style="background:url(\'https://x.example/b.png\')">x</p>'],
    ['icon', '<link rel="icon" href="https://x.example/favicon.ico">'],
    ['preconnect', '<link rel="preconnect" href="https://fonts.example">'],
  ])('%s', (_, html) => {
    const result = convertSite(folderOf({ 'index.html': page('Home', html), 'a.png': png }));
    const [found, ...rest] = refused(result);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({
      check: 'site',
      code: 'site.external',
      path: 'index.html',
      line: 1,
    });
    expect(String(found?.actual)).toMatch(/example/);
  });

  it('counts style sheets: url() and @import of a CSS file', () => {
    const result = convertSite(
      folderOf({
        'index.html': page('Home', '<link rel="stylesheet" href="css/a.css">'),
        'css/a.css':
          '@import url("https://f.example/b.css");\nbody{background:url(https://x.example/c.png)}',
      }),
    );
    expect(codes(refused(result))).toEqual([
      ['site.external', 'css/a.css', 'https://f.example/b.css'],
      ['site.external', 'css/a.css', 'https://x.example/c.png'],
    ]);
  });

  it('lets external links, data: URLs, mailto: and fragments be', () => {
    const body =
      '<a href="https://example.org/">out</a><a href="mailto:a@b.c">mail</a><a href="#top">top</a>' +
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt=""><link rel="canonical" href="https://example.org/">';
    const result = converted(convertSite(folderOf({ 'index.html': page('Home', body) })));
    expect(result.site.warnings).toEqual([]);
    expect(textOf(result.folder, 'index.html')).toBe(page('Home', body));
  });
});

describe('site.missing: a page loads a local file that is absent', () => {
  it('reports each load with its line, also from style sheets and above the root', () => {
    const result = convertSite(
      folderOf({
        'index.html': page(
          'Home',
          '\n<script src="main.js"></script>\n<img src="../outside.png">\n<audio><source src="media/a.mp3"></audio>',
        ),
        'style.css': 'p{background:url(img/none.png)}',
      }),
    );
    const violations = refused(result);
    expect(violations.map((v) => [v.code, v.path, v.line, v.actual])).toEqual([
      ['site.missing', 'index.html', 2, 'main.js'],
      ['site.missing', 'index.html', 3, '../outside.png'],
      ['site.missing', 'index.html', 4, 'media/a.mp3'],
      ['site.missing', 'style.css', 1, 'img/none.png'],
    ]);
  });

  it('ignores URLs in comments and scripts', () => {
    const body = '<!-- <img src="gone.png"> --><script>var s = "<img src=gone.png>";</script>';
    converted(convertSite(folderOf({ 'index.html': page('Home', body) })));
  });
});

describe('site.file_type: a referenced file of a type web does not allow', () => {
  it('counts loads and <a href> links to files alike', () => {
    const result = convertSite(
      folderOf({
        'index.html': page('Home', '<a href="files/report.docx">report</a><embed src="movie.swf">'),
        'files/report.docx': 'PK',
        'movie.swf': 'FWS',
      }),
    );
    expect(codes(refused(result))).toEqual([
      ['site.file_type', 'index.html', 'files/report.docx'],
      ['site.file_type', 'index.html', 'movie.swf'],
    ]);
  });

  it('counts content that is not what its extension says, and active SVG', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const result = convertSite(
      folderOf({
        'index.html': page('Home', '<img src="photo.png"><img src="icon.svg">'),
        'photo.png': 'not a png at all',
        'icon.svg': svg,
      }),
    );
    expect(codes(refused(result))).toEqual([
      ['site.file_type', 'index.html', 'icon.svg'],
      ['site.file_type', 'index.html', 'photo.png'],
    ]);
    expect(refused(result)[0]?.message).toMatch(/icon\.svg/);
  });

  it('ignores (and lists) unreferenced files web does not allow', () => {
    const result = converted(
      convertSite(
        folderOf({
          'index.html': page('Home', '<img src="a.png">'),
          'a.png': png,
          'b.png': png,
          'notes.docx': 'x',
          'src/app.ts': 'x',
          'broken.png': 'text',
          'Thumbs.db': 'x',
          '.git/HEAD': 'x',
          'img/.hidden.png': png,
        }),
      ),
    );
    expect(result.site.ignored).toEqual([
      '.git/HEAD',
      'Thumbs.db',
      'broken.png',
      'img/.hidden.png',
      'notes.docx',
      'src/app.ts',
    ]);
    expect([...result.folder.keys()]).toEqual(['project.json', 'a.png', 'b.png', 'index.html']);
  });
});

describe('site.link_removed: a link to a missing local page is unwrapped', () => {
  it('keeps the text, drops the link, reports a warning', () => {
    const body =
      '<p>See <a class="x" href="gone.html#top">the <b>old</b> page</a> and <a href="here.html">this</a>.</p>' +
      '<map name="m"><area shape="rect" coords="0,0,1,1" href="nope/" alt="x"></map>' +
      '<a href="../up.html">up</a>';
    const head = '<link rel="alternate" href="feed.xml">';
    const source = `<!doctype html><html><head><title>Home</title>${head}</head><body>${body}</body></html>`;
    const result = converted(
      convertSite(folderOf({ 'index.html': source, 'here.html': page('Here') })),
    );
    expect(textOf(result.folder, 'index.html')).toBe(
      '<!doctype html><html><head><title>Home</title></head><body>' +
        '<p>See the <b>old</b> page and <a href="here.html">this</a>.</p>' +
        '<map name="m"><area shape="rect" coords="0,0,1,1"  alt="x"></map>up</body></html>',
    );
    expect(result.site.warnings).toEqual([
      expect.objectContaining({
        code: 'site.link_removed',
        path: 'index.html',
        target: '../up.html',
      }),
      expect.objectContaining({
        code: 'site.link_removed',
        path: 'index.html',
        target: 'feed.xml',
      }),
      expect.objectContaining({
        code: 'site.link_removed',
        path: 'index.html',
        target: 'gone.html#top',
      }),
      expect.objectContaining({ code: 'site.link_removed', path: 'index.html', target: 'nope/' }),
    ]);
    for (const warning of result.site.warnings) {
      expect(warning).toEqual({
        code: 'site.link_removed',
        path: 'index.html',
        target: warning.target,
        actual: null,
        message: expect.stringContaining('removed') as string,
      });
    }
  });

  it('follows links to folders and bare names the way a static server does', () => {
    const body = '<a href="about/">a</a><a href="about">b</a><a href="/">c</a><a href="./">d</a>';
    const result = converted(
      convertSite(
        folderOf({ 'index.html': page('Home', body), 'about/index.html': page('About') }),
      ),
    );
    expect(result.site.warnings).toEqual([]);
    expect(textOf(result.folder, 'index.html')).toContain('<a href="about/">b</a>');
  });
});
