import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { convertSite, convertSiteZip, isPlainSite, type Folder } from '@galley/core';
import { converted, corpusMissing, corpusSites, readTree, refused, textOf } from './helpers.js';

// The real sites of ../shared/corpus/sites, read in place. Their .js, fonts and audio were left
// out on purpose (corpus README): the dangling references are what site.missing is for.
if (corpusMissing) console.warn(`skipped: ${corpusMissing}`);

const site = (name: string) => readTree(`${corpusSites}${name}`);
const found = (folder: Folder) => {
  const violations = refused(convertSite(folder));
  return violations.map((v) => [v.code, v.path, v.line, v.actual]);
};
const encoder = new TextEncoder();

/** An index page linking every page: what the three page collections lack to be plain sites. */
function withIndex(folder: Map<string, Uint8Array>) {
  const links = [...folder.keys()]
    .filter((path) => path.endsWith('.html'))
    .map((path) => `<li><a href="${path}">${path}</a></li>`);
  folder.set('index.html', encoder.encode(`<title>Index</title><ul>${links.join('')}</ul>`));
  return folder;
}

describe.skipIf(!!corpusMissing)('the corpus sites, converted', () => {
  it('mdn-accessibility-assessment: a Google Fonts style sheet, and its audio and script left out', () => {
    const gf = 'https://fonts.googleapis.com/css?family=Open+Sans+Condensed:300%7CSonsie+One';
    expect(found(site('mdn-accessibility-assessment'))).toEqual([
      ['site.external', 'index.html', 8, gf],
      ['site.missing', 'index.html', 97, 'media/bear.mp3'],
      ['site.missing', 'index.html', 98, 'media/bear.ogg'],
      ['site.missing', 'index.html', 167, 'main.js'],
      ['site.external', 'transcript.html', 8, gf],
    ]);
  });

  it('mdn-accessibility-assessment with its files restored and no web font: the link to bear.mp3 is unwrapped', () => {
    const folder = site('mdn-accessibility-assessment');
    for (const page of ['index.html', 'transcript.html'])
      folder.set(
        page,
        encoder.encode(textOf(folder, page).replace(/<link href="https:[^>]*>/, '')),
      );
    folder.set('main.js', encoder.encode('// restored'));
    folder.set('media/bear.mp3', encoder.encode('ID3\u0004\u0000'));
    folder.set('media/bear.ogg', encoder.encode('OggS\u0000'));
    const result = converted(convertSite(folder));
    expect(result.title).toBe('Accessibility assessment');
    expect(result.site.warnings).toEqual([
      expect.objectContaining({
        code: 'site.link_removed',
        path: 'index.html',
        target: 'bear.mp3',
      }),
    ]);
    expect(textOf(result.folder, 'index.html')).not.toContain('href="bear.mp3"');
    expect(result.site.pages.map((p) => p.public_url)).toEqual(['/', '/transcript.html']);
  });

  it('mdn-backgrounds: converts as it is, every byte kept', () => {
    const folder = site('mdn-backgrounds');
    const result = converted(convertSite(folder));
    expect(result.title).toBe('Backgrounds example');
    expect(result.site).toEqual({
      pages: [
        { file: 'index.html', public_url: '/' },
        { file: 'background-attachment.html', public_url: '/background-attachment.html' },
        { file: 'repeating-background.html', public_url: '/repeating-background.html' },
      ],
      ignored: [],
      warnings: [],
    });
    for (const [path, bytes] of folder) expect(result.folder.get(path)).toEqual(bytes);
  });

  it('mdn-backgrounds zipped in its own folder (as a zip tool makes it): the folder is stripped', () => {
    const files = Object.fromEntries(
      [...site('mdn-backgrounds')].map(([path, bytes]) => [`mdn-backgrounds/${path}`, bytes]),
    );
    const result = converted(convertSiteZip(zipSync(files)));
    expect(result.site.pages.map((p) => p.file)).toEqual([
      'index.html',
      'background-attachment.html',
      'repeating-background.html',
    ]);
  });

  it.each(['mdn-css-grids', 'mdn-html-head', 'mdn-responsive-images'])(
    '%s: page collections without index.html are no plain sites',
    (name) => {
      const folder = site(name);
      expect(isPlainSite(folder)).toBe(false);
      expect(found(folder)).toEqual([['site.read', 'index.html', undefined, undefined]]);
      const [refusal] = refused(convertSite(folder));
      expect(refusal?.suggestion).toBe(
        'Put index.html at the root of the site, or inside its one top-level folder; or name the ' +
          'page to open first: `galley convert --index FILE` (when uploading: field `index`).',
      );
    },
  );

  it('a project folder is no plain site, and the refusal says it needs no conversion', () => {
    const project = new Map([['project.json', new TextEncoder().encode('{"format": 1}')]]);
    const [refusal] = refused(convertSite(project));
    expect(refusal).toMatchObject({
      code: 'site.read',
      path: 'project.json',
      suggestion: 'Open it as it is: a project folder needs no conversion.',
    });
  });

  it('mdn-css-grids with an index: 24 pages and their style sheets convert untouched', () => {
    const result = converted(convertSite(withIndex(site('mdn-css-grids'))));
    expect(result.site.pages).toHaveLength(25);
    expect(result.site.warnings).toEqual([]);
    expect(result.site.pages).toContainEqual({
      file: '10-template-completed.html',
      public_url: '/10-template-completed.html',
    });
  });

  it('mdn-html-head with an index: the script it loads was left out', () => {
    expect(found(withIndex(site('mdn-html-head')))).toEqual([
      ['site.missing', 'css-and-js.html', 18, 'script.js'],
    ]);
  });

  it('mdn-responsive-images with an index: srcset and <picture> resolve', () => {
    const result = converted(convertSite(withIndex(site('mdn-responsive-images'))));
    expect(result.site.warnings).toEqual([]);
    expect([...result.folder.keys()]).toContain('elva-480w-close-portrait.jpg');
  });

  it('mdn-splash-page: a Google Fonts style sheet, a YouTube iframe, an SVG with a DOCTYPE', () => {
    // Illustrator's SVG 1.1 DOCTYPE makes mdn.svg active content (decisions §4: any DOCTYPE).
    expect(found(site('mdn-splash-page'))).toEqual([
      [
        'site.external',
        'index.html',
        7,
        'https://fonts.googleapis.com/css?family=Open+Sans:400,700',
      ],
      ['site.external', 'index.html', 107, 'https://www.youtube.com/embed/ojcNcvb1olg'],
      ['site.file_type', 'index.html', 138, 'mdn.svg'],
    ]);
  });

  it('mdn-typesetting-homepage: web fonts left out, SVG fonts with a DOCTYPE, jQuery from a CDN', () => {
    const lovato = 'original-font-files/Lovato Light-Webfont/Webfonts/lovato_light_macroman/';
    const josefin = 'original-font-files/webfontkit-20160419-074110/';
    const fonts = (prefix: string, path: string, first: number, name: string) =>
      ['.eot', '.eot?#iefix', '.woff2', '.woff', '.ttf'].map((ext, i) => [
        'site.missing',
        path,
        first + i,
        `${prefix}${name}${ext}`,
      ]);
    expect(found(site('mdn-typesetting-homepage'))).toEqual([
      [
        'site.missing',
        'original-font-files/Lovato Light-Webfont/Reference/How_to_use_webfonts.html',
        8,
        'stylesheet.css',
      ],
      [
        'site.external',
        `${lovato}Lovato-Light-demo.html`,
        7,
        'https://ajax.googleapis.com/ajax/libs/jquery/1.4.4/jquery.min.js',
      ],
      ['site.missing', `${lovato}Lovato-Light-demo.html`, 8, 'specimen_files/easytabs.js'],
      ['site.file_type', `${lovato}stylesheet.css`, 32, 'Lovato-Light-webfont.svg#lovatolight'],
      ...fonts('', `${lovato}stylesheet.css`, 27, 'Lovato-Light-webfont'),
      [
        'site.external',
        `${josefin}josefinslab-bold-demo.html`,
        7,
        'http://ajax.googleapis.com/ajax/libs/jquery/1.7.2/jquery.min.js',
      ],
      ['site.missing', `${josefin}josefinslab-bold-demo.html`, 8, 'specimen_files/easytabs.js'],
      [
        'site.file_type',
        `${josefin}stylesheet.css`,
        12,
        'josefinslab-bold-webfont.svg#josefin_slabbold',
      ],
      ...fonts('', `${josefin}stylesheet.css`, 7, 'josefinslab-bold-webfont'),
      ['site.file_type', 'style.css', 68, 'fonts/Lovato-Light-webfont.svg#lovatolight'],
      ['site.file_type', 'style.css', 80, 'fonts/josefinslab-bold-webfont.svg#josefin_slabbold'],
      ...fonts('fonts/', 'style.css', 63, 'Lovato-Light-webfont'),
      ...fonts('fonts/', 'style.css', 75, 'josefinslab-bold-webfont'),
    ]);
  });

  it('mdn-typesetting-homepage without its font kit: only the home page’s own fonts remain', () => {
    const folder = site('mdn-typesetting-homepage');
    for (const path of [...folder.keys()])
      if (path.startsWith('original-font-files/')) folder.delete(path);
    const codes = found(folder).map(([code, path]) => `${String(code)} ${String(path)}`);
    expect(new Set(codes)).toEqual(new Set(['site.missing style.css', 'site.file_type style.css']));
  });

  it('startbootstrap-agency: Bootstrap, Font Awesome and Google Fonts from CDNs, its script left out', () => {
    expect(found(site('startbootstrap-agency'))).toEqual([
      ['site.external', 'index.html', 12, 'https://use.fontawesome.com/releases/v6.3.0/js/all.js'],
      [
        'site.external',
        'index.html',
        14,
        'https://fonts.googleapis.com/css?family=Montserrat:400,700',
      ],
      [
        'site.external',
        'index.html',
        15,
        'https://fonts.googleapis.com/css?family=Roboto+Slab:400,100,300,700',
      ],
      [
        'site.external',
        'index.html',
        601,
        'https://cdn.jsdelivr.net/npm/bootstrap@5.2.3/dist/js/bootstrap.bundle.min.js',
      ],
      ['site.external', 'index.html', 608, 'https://cdn.startbootstrap.com/sb-forms-latest.js'],
      ['site.missing', 'index.html', 603, 'js/scripts.js'],
    ]);
  });

  it('startbootstrap-agency served from its own files: converts, `#!` links and data: URLs kept', () => {
    const folder = site('startbootstrap-agency');
    const source = textOf(folder, 'index.html').replace(
      /<(script|link)[^>]*"https:[^>]*>(<\/script>)?/g,
      '',
    );
    folder.set('index.html', encoder.encode(source));
    folder.set('js/scripts.js', encoder.encode('// restored'));
    const result = converted(convertSite(folder));
    expect(result.title).toBe('Agency - Start Bootstrap Theme');
    expect(result.site.warnings).toEqual([]);
    expect(textOf(result.folder, 'index.html')).toContain('href="#!"');
    expect(result.folder.get('css/styles.css')).toEqual(folder.get('css/styles.css'));
  });
});
