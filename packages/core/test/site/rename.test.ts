import { describe, expect, it } from 'vitest';
import { convertSite } from '@galley/core';
import { converted, folderOf, page, png, refused, textOf } from './helpers.js';

describe('site.renamed: files renamed to satisfy names, every reference rewritten', () => {
  it('lower-cases, drops accents, turns spaces into dashes, rewrites HTML and CSS', () => {
    const result = converted(
      convertSite(
        folderOf({
          'index.html': page(
            'Home',
            '<a href="Our%20Team/Über Uns.HTM#x">team</a><img src="Images/Logo%20Big.PNG" srcset="Images/Logo%20Big.PNG 1x, images/logo-small.png 2x">' +
              '<p style="background:url(&quot;Images/Logo Big.PNG&quot;)">x</p><link rel="stylesheet" href="/CSS/Main.css?v=2">',
          ),
          'Our Team/Über Uns.HTM': page(
            'Team',
            '<a href="../index.html">home</a><img src="../Images/Logo Big.PNG">',
          ),
          'Images/Logo Big.PNG': png,
          'images/logo-small.png': png,
          'CSS/Main.css':
            '@import "Fonts.css";\nbody { background: url( \'../Images/Logo Big.PNG\' ) }',
          'CSS/Fonts.css': 'p{color:red}',
        }),
      ),
    );
    expect([...result.folder.keys()]).toEqual([
      'project.json',
      'css/fonts.css',
      'css/main.css',
      'images/logo-big.png',
      'images/logo-small.png',
      'index.html',
      'our-team/uber-uns.html',
    ]);
    expect(textOf(result.folder, 'index.html')).toBe(
      page(
        'Home',
        '<a href="our-team/uber-uns.html#x">team</a><img src="images/logo-big.png" srcset="images/logo-big.png 1x, images/logo-small.png 2x">' +
          '<p style="background:url(&quot;images/logo-big.png&quot;)">x</p><link rel="stylesheet" href="/css/main.css?v=2">',
      ),
    );
    expect(textOf(result.folder, 'our-team/uber-uns.html')).toBe(
      page('Team', '<a href="../index.html">home</a><img src="../images/logo-big.png">'),
    );
    expect(textOf(result.folder, 'css/main.css')).toBe(
      '@import "fonts.css";\nbody { background: url( \'../images/logo-big.png\' ) }',
    );
    expect(result.site.warnings).toEqual([
      {
        code: 'site.renamed',
        path: 'CSS/Fonts.css',
        target: 'css/fonts.css',
        actual: null,
        message: expect.any(String) as string,
      },
      expect.objectContaining({ path: 'CSS/Main.css', target: 'css/main.css' }),
      expect.objectContaining({ path: 'Images/Logo Big.PNG', target: 'images/logo-big.png' }),
      expect.objectContaining({ path: 'Our Team/Über Uns.HTM', target: 'our-team/uber-uns.html' }),
    ]);
    expect(result.site.pages).toContainEqual({
      file: 'our-team/uber-uns.html',
      public_url: '/our-team/uber-uns.html',
    });
  });

  it('spells Latin letters without a decomposition in ASCII', () => {
    const result = converted(
      convertSite(folderOf({ 'index.html': page('Home'), 'Straße Ærø Łódź.html': page('S') })),
    );
    expect(result.site.pages.map((p) => p.file)).toContain('strasse-aero-lodz.html');
  });

  it('numbers a file whose clean name is taken; the valid name keeps it', () => {
    const result = converted(
      convertSite(
        folderOf({
          'index.html': page('Home', '<img src="a b.png"><img src="A-B.png"><img src="a-b.png">'),
          'a b.png': png,
          'A-B.png': png,
          'a-b.png': png,
        }),
      ),
    );
    expect([...result.folder.keys()]).toEqual([
      'project.json',
      'a-b-2.png',
      'a-b-3.png',
      'a-b.png',
      'index.html',
    ]);
    expect(textOf(result.folder, 'index.html')).toContain(
      '<img src="a-b-3.png"><img src="a-b-2.png"><img src="a-b.png">',
    );
  });

  it('never lets a file become project.json', () => {
    const result = converted(
      convertSite(folderOf({ 'index.html': page('Home'), 'Project.json': '{"mine":true}' })),
    );
    expect(textOf(result.folder, 'project-2.json')).toBe('{"mine":true}');
    expect(JSON.parse(textOf(result.folder, 'project.json'))).toHaveProperty('format', 1);
  });

  it('finds references that differ in case or Unicode form, and rights them', () => {
    const nfd = 'cafe\u0301.png';
    const result = converted(
      convertSite(
        folderOf({
          'index.html': page('Home', '<img src="IMG/Photo.png"><img src="café.png">'),
          'img/photo.png': png,
          [nfd]: png,
        }),
      ),
    );
    expect(textOf(result.folder, 'index.html')).toContain(
      '<img src="img/photo.png"><img src="cafe.png">',
    );
  });

  it('gives files with nothing readable in their name a stable generated name', () => {
    const files = { 'index.html': page('Home', '<img src="写真.png">'), '写真.png': png };
    const first = converted(convertSite(folderOf(files)));
    const name = [...first.folder.keys()].find((p) => p.endsWith('.png'));
    expect(name).toMatch(/^f-[0-9a-f]{8}\.png$/);
    expect(textOf(first.folder, 'index.html')).toContain(`<img src="${name}">`);
    const again = converted(convertSite(folderOf(files)));
    expect([...again.folder.keys()]).toEqual([...first.folder.keys()]);
  });

  it('rewrites only the URL text of CSS, read as the links check reads it', () => {
    // Escaped `url(` and `@import`, image-set() strings, comments and strings that only look like
    // references; a query that needs escaping where the new URL is written.
    const css = (logo: string, fonts: string) =>
      `@\\69mport '${fonts}';\n/* url(Logo.PNG) */ a::after { content: "url(Logo.PNG)" }\n` +
      `.x { background: u\\72l(  ${logo}  ) }\n` +
      `.y { background: image-set("${logo}" 1x, '${logo}' 2x) }\n` +
      `.z { background: url(${logo.replace('Logo.PNG', 'Logo\\.PNG')}?a\\)b) }\n`;
    const result = converted(
      convertSite(
        folderOf({
          'index.html': page('Home', '<link rel="stylesheet" href="CSS/Main.css">'),
          'CSS/Main.css': css('../Logo.PNG', 'Fonts.css'),
          'CSS/Fonts.css': 'p{color:red}',
          'Logo.PNG': png,
        }),
      ),
    );
    expect(textOf(result.folder, 'css/main.css')).toBe(css('../logo.png', 'fonts.css'));
  });

  it('keeps references that still resolve untouched, byte for byte', () => {
    const source = page('Home', "<img src='./a.png' alt=x><img SRC=a.png>");
    const result = converted(convertSite(folderOf({ 'index.html': source, 'a.png': png })));
    expect(textOf(result.folder, 'index.html')).toBe(source);
  });
});

describe('site.page_url: a page path that cannot be a URL, or two pages on one URL', () => {
  it('refuses two pages that become one URL', () => {
    const violations = refused(
      convertSite(
        folderOf({ 'index.html': page('Home'), 'about.htm': page('A'), 'about.html': page('B') }),
      ),
    );
    expect(violations).toEqual([
      expect.objectContaining({ code: 'site.page_url', path: 'about.htm', actual: 'about.html' }),
    ]);
    expect(violations[0]?.message).toContain('/about.html');
  });

  it('refuses a page whose name has no letter or digit to keep, and an over-long page path', () => {
    const long = `${'deep-folder-name/'.repeat(12)}page.html`;
    const violations = refused(
      convertSite(
        folderOf({ 'index.html': page('Home'), '???.html': page('Q'), [long]: page('L') }),
      ),
    );
    expect(violations.map((v) => [v.code, v.path])).toEqual([
      ['site.page_url', '???.html'],
      ['site.page_url', long],
    ]);
  });

  it('maps index.html to its folder and .htm to .html', () => {
    const result = converted(
      convertSite(
        folderOf({
          'index.html': page('Home', '<a href="docs/index.htm">docs</a><a href="docs/">d</a>'),
          'docs/index.htm': page('Docs'),
          'a.html': page('A'),
        }),
      ),
    );
    expect(result.site.pages).toEqual([
      { file: 'index.html', public_url: '/' },
      { file: 'a.html', public_url: '/a.html' },
      { file: 'docs/index.html', public_url: '/docs/' },
    ]);
    expect(textOf(result.folder, 'index.html')).toContain(
      '<a href="docs/index.html">docs</a><a href="docs/">d</a>',
    );
    expect(result.site.warnings.map((w) => w.code)).toEqual(['site.renamed']);
  });
});
