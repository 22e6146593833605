import { describe, expect, it } from 'vitest';
import { checkFolder, convertSite, type Folder } from '@galley/core';
import { folderOf, png, webFolder } from './fixtures.js';

// Plain-site conversion (decisions §5) reads CSS with the links check's tokenizer and resolves
// URLs with its resolver, against the page's `<base href>` as the check does; the server checks
// the folder it produces again (apps/server folder-state.ts). These tests pin what reaches a
// project through that path for the loads the links check sees.

const page = (head: string, body = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>T</title>${head}</head><body>${body}</body></html>`;
const evil = 'https://evil.example/a.png';

const externalSites: Record<string, Record<string, string | Uint8Array>> = {
  'url( escaped in <style>': {
    'index.html': page(`<style>body{background:u\\72l(${evil})}</style>`),
  },
  'url( escaped in a style sheet': {
    'index.html': page('<link rel="stylesheet" href="a.css">'),
    'a.css': `body{background:u\\72l(${evil})}`,
  },
  '@import escaped': {
    'index.html': page('<style>@\\69mport "https://evil.example/a.css";</style>'),
  },
  'image-set() string': {
    'index.html': page(`<style>body{background:image-set("${evil}" 1x)}</style>`),
  },
  'external <base href>': {
    'index.html': page('<base href="https://evil.example/">', '<img src="a.png" alt="">'),
    'a.png': png(1, 1),
  },
};

/** The external loads a conversion refuses, or else the links check of what it produced. */
function externalFindings(files: Record<string, string | Uint8Array>) {
  const result = convertSite(folderOf(files));
  const violations = result.ok ? checkFolder(result.folder).violations : result.report.violations;
  return violations.filter((v) => v.code === 'site.external' || v.code === 'links.external');
}

describe('plain sites and the loads the links check reads', () => {
  it.each(Object.entries(externalSites))('%s never reaches a project unseen', (_, files) => {
    expect(externalFindings(files)).not.toEqual([]);
  });

  it.each(Object.entries(externalSites))('%s is site.external', (_, files) => {
    const result = convertSite(folderOf(files));
    expect(result.ok ? [] : result.report.violations.map((v) => v.code)).toContain('site.external');
  });

  it('a local <base href> is what relative URLs resolve against', () => {
    const files = {
      'index.html': page('<base href="img/">', '<img src="a.png" alt="">'),
      'img/a.png': png(1, 1),
    };
    expect(convertSite(folderOf(files)).ok).toBe(true);
  });
});

const decoder = new TextDecoder();
const textOf = (folder: Folder, path: string) => decoder.decode(folder.get(path));

/** A conversion that succeeds and whose folder passes every folder check; its folder. */
function convertedFolder(files: Record<string, string | Uint8Array>): Folder {
  const result = convertSite(folderOf(files));
  if (!result.ok) return expect.fail(JSON.stringify(result.report.violations));
  expect(checkFolder(result.folder).violations).toEqual([]);
  return result.folder;
}

describe('a local <base href>: the page is rewritten to resolve from itself', () => {
  it('removes the base and rewrites every URL it changed, in HTML and CSS alike', () => {
    const body =
      '<img src="a.png" srcset="a.png 1x, ../B.PNG 2x" alt=""><p style="background:url(a.png)">x</p>' +
      '<style>p{background:u\\72l( a.png )}</style><a href="../about.html#team">about</a>' +
      '<a href="gone.html">gone</a><a href="#top">top</a><a href="/index.html">home</a>';
    const folder = convertedFolder({
      'index.html': page('<base href="img/">', body),
      'img/a.png': png(1, 1),
      'B.PNG': png(1, 1),
      'about.html': page(''),
    });
    expect(textOf(folder, 'index.html')).toBe(
      page(
        '<base>',
        '<img src="img/a.png" srcset="img/a.png 1x, b.png 2x" alt=""><p style="background:url(img/a.png)">x</p>' +
          '<style>p{background:u\\72l( img/a.png )}</style><a href="about.html#team">about</a>' +
          'gone<a href="#top">top</a><a href="/index.html">home</a>',
      ),
    );
  });

  it('keeps a target, removes every href (the next base would count), in a subfolder too', () => {
    const folder = convertedFolder({
      'index.html': page(''),
      'blog/post.html': page(
        '<base target="_blank" href="/assets/">\n<base href="elsewhere/">',
        '<img src="a.png" alt="">',
      ),
      'assets/a.png': png(1, 1),
    });
    expect(textOf(folder, 'blog/post.html')).toBe(
      page('<base target="_blank">\n<base>', '<img src="../assets/a.png" alt="">'),
    );
  });

  it('reports a load missing under the base as site.missing', () => {
    const result = convertSite(
      folderOf({
        'index.html': page('<base href="img/">', '<img src="a.png" alt="">'),
        'a.png': png(1, 1),
      }),
    );
    expect(result.ok ? [] : result.report.violations.map((v) => [v.code, v.actual])).toEqual([
      ['site.missing', 'a.png'],
    ]);
  });

  it('refuses a base that leaves the site (site.missing at the base), as links refuses it', () => {
    const result = convertSite(
      folderOf({
        'index.html': page('<base href="../">', '<img src="a.png" alt="">'),
        'a.png': png(1, 1),
      }),
    );
    expect(result.ok ? [] : result.report.violations.map((v) => [v.code, v.actual])).toEqual([
      ['site.missing', '../'],
    ]);
  });

  it('leaves the page as it is when its first base changes nothing (the next one does not count)', () => {
    const head = '<base href=""><base href="img/">';
    const folder = convertedFolder({
      'index.html': page(head, '<img src="a.png" alt="">'),
      'a.png': png(1, 1),
    });
    expect(textOf(folder, 'index.html')).toBe(page(head, '<img src="a.png" alt="">'));
  });
});

describe('an external <base href>', () => {
  it('makes every relative load external, each one reported', () => {
    const result = convertSite(
      folderOf({
        'index.html': page(
          '<base href="https://cdn.example/">',
          '<img src="a.png" alt=""><img src="/b.png" alt=""><img src="data:image/png;base64,AA==" alt="">',
        ),
        'a.png': png(1, 1),
        'b.png': png(1, 1),
      }),
    );
    expect(result.ok ? [] : result.report.violations.map((v) => [v.code, v.actual])).toEqual([
      ['site.external', '/b.png'],
      ['site.external', 'a.png'],
    ]);
  });

  it('lets links to it be: the page converts with its base', () => {
    const html = page('<base href="https://example.org/">', '<a href="gone.html">there</a>');
    const folder = convertedFolder({ 'index.html': html });
    expect(textOf(folder, 'index.html')).toBe(html);
  });
});

describe('URLs read as the links check reads them', () => {
  it('drops tabs and newlines and reads \\ as /', () => {
    convertedFolder({
      'index.html': page('', '<img src="img\\a.png" alt=""><img src="im\tg/\na.png" alt="">'),
      'img/a.png': png(1, 1),
    });
  });
});

/** Loads beyond `src` and `srcset`, `URL` standing for what they load. */
const otherLoads: Record<string, string> = {
  'SVG <script href>': page('', '<svg><script href="URL"></script></svg>'),
  'SVG <script xlink:href>': page('', '<svg><script xlink:href="URL"></script></svg>'),
  'SVG <script> with XLink bound to another prefix': page(
    '',
    '<svg xmlns:q="http://www.w3.org/1999/xlink"><script q:href="URL"></script></svg>',
  ),
  '<body background>': page('', 'x').replace('<body>', '<body background="URL">'),
  '<table background>': page('', '<table background="URL"><tr><td>x</td></tr></table>'),
  '<tr background>': page('', '<table><tr background="URL"><td>x</td></tr></table>'),
  '<td background>': page('', '<table><tr><td background="URL">x</td></tr></table>'),
  '<th background>': page('', '<table><tr><th background="URL">x</th></tr></table>'),
  '<link rel="preload" imagesrcset>': page(
    '<link rel="preload" as="image" imagesrcset="a.png 1x, URL 2x" imagesizes="50vw">',
  ),
};
const loadTargets = [
  ['external', 'https://evil.example/x.png'],
  ['missing', 'nope.png'],
] as const;
const loadCases = Object.entries(otherLoads).flatMap(([name, html]) =>
  loadTargets.map(([kind, url]) => [name, kind, url, html.replace('URL', url)] as const),
);

describe('loads beyond src and srcset, in a folder and in a plain site alike', () => {
  it.each(loadCases)('%s, %s: links.* and site.* agree', (_, kind, url, html) => {
    const folder = webFolder({ 'index.html': html, 'a.png': png(1, 1) });
    const links = checkFolder(folder).violations.filter((v) => v.check === 'links');
    expect(links.map((v) => [v.code, v.actual])).toEqual([[`links.${kind}`, url]]);
    const result = convertSite(folderOf({ 'index.html': html, 'a.png': png(1, 1) }));
    const site = result.ok ? [] : result.report.violations;
    expect(site.map((v) => [v.code, v.actual])).toEqual([[`site.${kind}`, url]]);
  });

  it('lets SVG fragments and SVG links be, and unwraps an SVG link to a missing page', () => {
    const svg =
      '<svg xmlns:q="http://www.w3.org/1999/xlink"><symbol id="i"/><use href="#i"/><use q:href="#i"/>' +
      '<a xlink:href="https://example.org/"><text>out</text></a><a q:href="gone.html"><text>gone</text></a></svg>';
    const links = checkFolder(webFolder({ 'index.html': page('', svg) })).violations;
    expect(links.filter((v) => v.check === 'links').map((v) => [v.code, v.actual])).toEqual([
      ['links.missing', 'gone.html'],
    ]);
    const folder = convertedFolder({ 'index.html': page('', svg) });
    expect(textOf(folder, 'index.html')).toBe(
      page('', svg.replace(/<a q:href="gone.html">(.*?)<\/a>/, '$1')),
    );
  });

  it('rewrites an imagesrcset that a local <base href> resolved', () => {
    const head =
      '<base href="img/"><link rel="preload" as="image" imagesrcset="a.png 1x, b.png 2x">';
    const folder = convertedFolder({
      'index.html': page(head),
      'img/a.png': png(1, 1),
      'img/b.png': png(1, 1),
    });
    expect(textOf(folder, 'index.html')).toBe(
      page('<base><link rel="preload" as="image" imagesrcset="img/a.png 1x, img/b.png 2x">'),
    );
  });
});
