import { describe, expect, it } from 'vitest';
import { convertSite, convertSiteZip, isPlainSite, writeZip } from '@galley/core';
import { converted, folderOf, page, png, refused, textOf } from './helpers.js';

// The conversion's choices: `index` names the entry page of a site without index.html;
// `dropExternal` and `dropMissing` take out what the site cannot load instead of refusing it.

const cdn = 'https://cdn.example.com';

describe('index: the entry page of a site without index.html', () => {
  const site = {
    'home.html': page('Home', '<a href="about.html">About</a>'),
    'about.html': page('About', '<a href="home.html">Home</a> <a href="./home.html#top">Top</a>'),
  };

  it('becomes index.html, every link to it rewritten, the title taken from it', () => {
    expect(isPlainSite(folderOf(site))).toBe(false);
    expect(isPlainSite(folderOf(site), { index: 'home.html' })).toBe(true);
    const result = converted(convertSite(folderOf(site), { index: 'home.html' }));
    expect(result.title).toBe('Home');
    expect(result.site.pages).toEqual([
      { file: 'index.html', public_url: '/' },
      { file: 'about.html', public_url: '/about.html' },
    ]);
    expect(result.site.warnings).toEqual([
      expect.objectContaining({ code: 'site.renamed', path: 'home.html', target: 'index.html' }),
    ]);
    const about = textOf(result.folder, 'about.html');
    expect(about).toContain('<a href="index.html">Home</a>');
    expect(about).toContain('<a href="index.html#top">Top</a>');
  });

  it('may sit in a folder, and in the one wrapping folder of a ZIP', () => {
    const nested = folderOf({
      'pages/start.html': page('Start', '<img src="../dot.png" alt="">'),
      'dot.png': png,
    });
    const result = converted(convertSite(nested, { index: 'pages/start.html' }));
    expect(textOf(result.folder, 'index.html')).toContain('<img src="dot.png"');
    const zip = writeZip(
      new Map([...folderOf(site)].map(([path, bytes]) => [`my-site/${path}`, bytes])),
    );
    const zipped = converted(convertSiteZip(zip, { index: 'home.html' }));
    expect(zipped.site.pages.map((p) => p.file)).toEqual(['index.html', 'about.html']);
  });

  it('an entry page that is absent, or no page, is refused as site.read with the reason', () => {
    const [absent] = refused(convertSite(folderOf(site), { index: 'start.html' }));
    expect(absent).toMatchObject({ code: 'site.read', path: 'start.html' });
    expect(absent?.message).toContain('not in the site');
    const withCss = folderOf({ ...site, 'style.css': 'p {}' });
    const [notPage] = refused(convertSite(withCss, { index: 'style.css' }));
    expect(notPage).toMatchObject({ code: 'site.read', path: 'style.css' });
  });

  it('beside an index.html, two pages would share `/`: site.page_url', () => {
    const both = folderOf({ ...site, 'index.html': page('Index') });
    expect(refused(convertSite(both, { index: 'home.html' }))).toEqual([
      expect.objectContaining({ code: 'site.page_url', path: 'home.html', actual: 'index.html' }),
    ]);
  });
});

describe('dropExternal: loads from another origin are removed, embeds become links', () => {
  const site = {
    'index.html': page(
      'Shop',
      [
        `<script src="${cdn}/lib.js"></script>`,
        `<img src="${cdn}/a.png" alt="a"><img src="dot.png" srcset="${cdn}/b.png 2x" alt="b">`,
        `<video poster="${cdn}/poster.jpg"></video>`,
        `<iframe width="400" src="https://www.youtube.com/embed/abc?x=1&amp;y=2"></iframe>`,
        `<p style="background: url(${cdn}/bg.png)">text</p>`,
        `<a href="${cdn}/page">a link stays</a>`,
      ].join('\n'),
    ).replace('</head>', `<link rel="stylesheet" href="${cdn}/fonts.css"></head>`),
    'style.css': `@import url("${cdn}/more.css");\nbody { background: url(dot.png) }`,
    'dot.png': png,
  };

  it('is refused without the option, with advice that names the options', () => {
    const violations = refused(convertSite(folderOf(site)));
    expect(violations.every((v) => v.code === 'site.external')).toBe(true);
    const iframe = violations.find((v) => String(v.actual).includes('youtube'));
    expect(iframe?.suggestion).toContain('--drop-external');
    expect(iframe?.suggestion).not.toContain('Copy the file');
    const script = violations.find((v) => v.actual === `${cdn}/lib.js`);
    expect(script?.suggestion).toContain('--vendor');
    expect(script?.suggestion).toContain('--drop-external');
  });

  it('converts with every removal a warning, and the result passes the folder checks', () => {
    const result = converted(convertSite(folderOf(site), { dropExternal: true }));
    const html = textOf(result.folder, 'index.html');
    expect(html).not.toContain(cdn + '/lib.js');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('fonts.css');
    expect(html).toContain('<img src="dot.png"  alt="b">');
    expect(html).not.toContain('a.png');
    expect(html).toContain('<video ></video>');
    expect(html).toContain(
      '<a href="https://www.youtube.com/embed/abc?x=1&amp;y=2">https://www.youtube.com/embed/abc?x=1&amp;y=2</a>',
    );
    expect(html).toContain('style="background: url(data:,)"');
    expect(html).toContain(`<a href="${cdn}/page">a link stays</a>`);
    expect(textOf(result.folder, 'style.css')).toBe(
      '@import url("data:,");\nbody { background: url(dot.png) }',
    );
    const warnings = result.site.warnings.map((w) => [w.code, w.path, w.target, w.actual]);
    expect(warnings).toEqual([
      ['site.embed_linked', 'index.html', 'https://www.youtube.com/embed/abc?x=1&y=2', 'iframe'],
      ['site.external_dropped', 'index.html', `${cdn}/a.png`, 'img'],
      ['site.external_dropped', 'index.html', `${cdn}/b.png`, 'img'],
      ['site.external_dropped', 'index.html', `${cdn}/bg.png`, 'p'],
      ['site.external_dropped', 'index.html', `${cdn}/fonts.css`, 'link'],
      ['site.external_dropped', 'index.html', `${cdn}/lib.js`, 'script'],
      ['site.external_dropped', 'index.html', `${cdn}/poster.jpg`, 'video'],
      ['site.external_dropped', 'style.css', `${cdn}/more.css`, 'css'],
    ]);
  });

  it('leaves missing local loads to site.missing', () => {
    const missing = folderOf({
      ...site,
      'index.html': page('x', '<script src="gone.js"></script>'),
    });
    expect(refused(convertSite(missing, { dropExternal: true }))).toEqual([
      expect.objectContaining({ code: 'site.missing', actual: 'gone.js' }),
    ]);
  });
});

describe('dropMissing: loads of absent files, or of files of a refused type, are removed', () => {
  const activeSvg =
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>';
  const site = {
    'index.html': page(
      'Bears',
      [
        '<audio controls><source src="bear.mp3"><source src="bear.ogg"><p>fallback</p></audio>',
        '<img src="logo.svg" alt="logo">',
        '<script src="main.js"></script><a href="gone.html">gone</a>',
      ].join(''),
    ),
    'fonts.css': '@font-face { font-family: x; src: url(x.woff2) format("woff2"), url(x.woff); }',
    'logo.svg': activeSvg,
  };

  it('converts; the refused SVG nobody loads any more is ignored', () => {
    const result = converted(convertSite(folderOf(site), { dropMissing: true }));
    expect(textOf(result.folder, 'index.html')).toContain(
      '<audio controls><p>fallback</p></audio>gone',
    );
    expect(textOf(result.folder, 'fonts.css')).toBe(
      '@font-face { font-family: x; src: url(data:,) format("woff2"), url(data:,); }',
    );
    expect(result.site.ignored).toEqual(['logo.svg']);
    expect(result.site.warnings.map((w) => [w.code, w.target])).toEqual([
      ['site.missing_dropped', 'x.woff'],
      ['site.missing_dropped', 'x.woff2'],
      ['site.link_removed', 'gone.html'],
      ['site.missing_dropped', 'bear.mp3'],
      ['site.missing_dropped', 'bear.ogg'],
      ['site.missing_dropped', 'logo.svg'],
      ['site.missing_dropped', 'main.js'],
    ]);
  });
});
