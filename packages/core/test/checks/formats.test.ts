import { describe, expect, it } from 'vitest';
import { checkFolder, type Violation } from '@galley/core';
import { folderOf, gif, html, png, projectJson, svg, utf8 } from './fixtures.js';

const formatsOf = (extra: Record<string, string | Uint8Array>, medium = 'web') =>
  checkFolder(
    folderOf({
      'project.json': projectJson(['index.html'], medium),
      'index.html': html(),
      ...extra,
    }),
  ).violations.filter((v) => v.check === 'formats');
const one = (extra: Record<string, string | Uint8Array>): Violation | undefined =>
  formatsOf(extra)[0];

describe('formats check', () => {
  it('allows what the medium allows, project.json aside', () => {
    expect(formatsOf({ 'app.js': 'x()', 'data.json': '{}', 'a.txt': 'hi' })).toEqual([]);
    const banner = formatsOf({ 'app.js': 'x()', 'canvas/a.png': png(300, 250) }, 'banner');
    expect(banner.map((v) => [v.path, v.code])).toEqual([['app.js', 'formats.not_allowed']]);
    expect(banner[0]?.actual).toBe('js');
    expect(banner[0]?.expected).toEqual([
      'css',
      'gif',
      'html',
      'jpeg',
      'png',
      'svg',
      'webp',
      'woff2',
    ]);
    expect(one({ README: 'no extension' })).toMatchObject({
      code: 'formats.not_allowed',
      actual: null,
    });
  });

  it('sniffs content against the extension', () => {
    expect(one({ 'a.png': gif(1, 1) })).toMatchObject({
      code: 'formats.mismatch',
      expected: 'png',
      actual: 'gif',
    });
    expect(one({ 'a.gif': 'GIF? no' })).toMatchObject({ code: 'formats.mismatch', actual: 'text' });
    expect(one({ 'a.css': png(1, 1) })).toMatchObject({ code: 'formats.mismatch', actual: 'png' });
    expect(one({ 'a.woff2': utf8('wOF2rest') })).toBeUndefined();
    expect(one({ 'a.otf': new Uint8Array([0, 1, 0, 0, 0]) })).toBeUndefined(); // TrueType in .otf
    expect(one({ 'a.pdf': '%PDF-1.7\n' })).toBeUndefined();
    expect(one({ 'a.json': '{"a":' })).toMatchObject({
      code: 'formats.mismatch',
      message: 'The file is not valid JSON.',
    });
  });

  it('requires UTF-8 for HTML and CSS', () => {
    const latin1 = new Uint8Array([0x70, 0xe9, 0x7b, 0x7d]);
    expect(one({ 'a.css': latin1 })).toMatchObject({ code: 'formats.encoding', expected: 'utf-8' });
    expect(one({ 'a.css': '\ufeffp{}' })).toBeUndefined(); // a BOM is fine
    // UTF-16 text is text in another encoding, not audio (FF FE looks like an MP3 frame sync).
    const utf16 = (bom: number[], text: string, littleEndian: boolean) =>
      new Uint8Array([
        ...bom,
        ...[...text].flatMap((c) => (littleEndian ? [c.charCodeAt(0), 0] : [0, c.charCodeAt(0)])),
      ]);
    for (const path of ['a.css', 'a.html', 'a.svg']) {
      for (const encoded of [utf16([0xff, 0xfe], 'p{}', true), utf16([0xfe, 0xff], 'p{}', false)]) {
        expect(one({ [path]: encoded })).toMatchObject({
          code: 'formats.encoding',
          expected: 'utf-8',
        });
      }
    }
  });

  it('reads image dimensions within bounds, guarded', () => {
    expect(one({ 'a.png': png(16_384, 3051) })).toBeUndefined(); // 49.99 MP
    expect(one({ 'b.png': png(16_384, 3052) })).toMatchObject({
      code: 'formats.dimensions',
      expected: { max_side: 16_384, max_pixels: 50_000_000 },
      actual: { width: 16_384, height: 3052 },
    });
    expect(one({ 'c.png': png(0, 10) })).toMatchObject({ code: 'formats.dimensions' });
    expect(one({ 'd.gif': gif(20_000, 1) })).toMatchObject({ code: 'formats.dimensions' });
    expect(one({ 'e.svg': svg(20_000, 1) })).toMatchObject({ code: 'formats.dimensions' });
  });

  it('does not read past a truncated image held in a view of a larger buffer', () => {
    const backing = new Uint8Array(64);
    backing.set(png(10, 10));
    expect(one({ 'a.png': backing.subarray(0, 20) })).toMatchObject({ code: 'formats.unreadable' });
  });

  it('reads the header of images held in views of one larger buffer, as an unpacked ZIP', () => {
    const webp = new Uint8Array(30);
    webp.set(utf8('RIFF'), 0);
    webp.set(utf8('WEBPVP8X'), 8);
    webp.set([10, 0, 0, 0], 16);
    webp.set([0x1f, 0x4e, 0, 0, 0, 0], 24); // width 20,000 and height 1, each stored minus one
    const images = { 'a.png': png(20_000, 1), 'b.gif': gif(20_000, 1), 'c.webp': webp };
    const backing = new Uint8Array(3 * 1024);
    const views = Object.fromEntries(
      Object.entries(images).map(([path, bytes], i) => {
        backing.set(bytes, i * 1024);
        return [path, backing.subarray(i * 1024, (i + 1) * 1024)]; // each followed by its body
      }),
    );
    expect(formatsOf(views).map((v) => [v.path, v.code, v.actual])).toEqual(
      Object.keys(images).map((path) => [path, 'formats.dimensions', { width: 20_000, height: 1 }]),
    );
  });

  it('accepts an SVG with no intrinsic size (the canvas check deals with it)', () => {
    expect(
      one({ 'a.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>' }),
    ).toBeUndefined();
    expect(one({ 'b.svg': '<html><body>not svg</body></html>' })).toMatchObject({
      code: 'formats.mismatch',
    });
  });

  it.each([
    ['0 × 0', 'width="0" height="0"', { width: 0, height: 0 }],
    ['negative sides', 'width="-5" height="-5"', { width: -5, height: -5 }],
    ['one negative side', 'width="10" height="-5px"', { width: 10, height: -5 }],
    ['a side that rounds to 0', 'width="0.4" height="10"', { width: 0, height: 10 }],
    ['0 with units', 'width="0cm" height="0mm"', { width: 0, height: 0 }],
    ['spaces around =', 'width = "0" height = \'0\'', { width: 0, height: 0 }],
    ['0 beside a viewBox', 'width="0" viewBox="0 0 10 20"', { width: 0, height: 20 }],
    ['a side given alone, too wide', 'width="20000"', { width: 20_000, height: 0 }],
  ])('refuses an SVG declaring %s (formats.dimensions, as a raster header)', (_, size, actual) => {
    const image = `<svg xmlns="http://www.w3.org/2000/svg" ${size}/>`;
    expect(one({ 'a.svg': image })).toMatchObject({
      code: 'formats.dimensions',
      path: 'a.svg',
      expected: { max_side: 16_384, max_pixels: 50_000_000 },
      actual,
    });
  });

  it('accepts SVG sizes within the bounds, percentages and unknown units as before', () => {
    const inBounds = ['width="1" height="16384"', 'width="0.6" height="10"', 'width="10cm"'];
    const relative = ['width="100%" height="100%"', 'width="0%" height="0%"', 'width="-5vw"'];
    for (const size of [...inBounds, ...relative])
      expect([size, one({ 'a.svg': `<svg xmlns="http://www.w3.org/2000/svg" ${size}/>` })]).toEqual(
        [size, undefined],
      );
    // Only the root element's attributes are sizes.
    expect(one({ 'b.svg': svg(10, 10, '<rect width="0" height="-1"/>') })).toBeUndefined();
  });

  it.each([
    ['script', '<script>alert(1)</script>', ['script']],
    ['namespaced script', '<svg:script xmlns:svg="http://www.w3.org/2000/svg"/>', ['script']],
    ['event handler', '<rect onclick="x()"/>', ['event_handler']],
    ['foreignObject', '<foreignObject><p>x</p></foreignObject>', ['foreign_object']],
    ['external image', '<image href="https://x.test/a.png"/>', ['external_reference']],
    ['relative image', '<image xlink:href="other.svg"/>', ['external_reference']],
    ['external CSS', '<style>@import url(https://x.test/a.css);</style>', ['external_reference']],
    ['style attribute', '<rect style="fill:url(https://x.test/p.svg#p)"/>', ['external_reference']],
    [
      'href animation',
      '<a><set attributeName="href" to="javascript:x()"/></a>',
      ['external_reference'],
    ],
  ])('refuses an SVG with %s', (_, inner, reasons) => {
    expect(one({ 'a.svg': svg(10, 10, inner) })).toMatchObject({
      code: 'formats.svg_active',
      actual: reasons,
    });
  });

  describe('href under any prefix (browsers resolve XLink by namespace, not by prefix)', () => {
    const bound = (inner: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:q="http://www.w3.org/1999/xlink" width="10" height="10">${inner}</svg>`;

    it.each([
      ['a javascript: link', '<a q:href="javascript:alert(1)"><rect width="5" height="5"/></a>'],
      ['an external image', '<image q:href="https://evil.example/t.png" width="5" height="5"/>'],
      ['an external use', '<use q:href="https://evil.example/x.svg#a"/>'],
      ['an upper-case prefix and name', '<image Q:HREF="https://evil.example/t.png"/>'],
    ])('refuses %s under the prefix q', (_, inner) => {
      expect(one({ 'a.svg': bound(inner) })).toMatchObject({
        code: 'formats.svg_active',
        path: 'a.svg',
        actual: ['external_reference'],
      });
    });

    it('accepts same-document references under any prefix', () => {
      expect(one({ 'a.svg': bound('<defs><g id="a"/></defs><use q:href="#a"/>') })).toBeUndefined();
    });
  });

  describe('url() in attributes other than style', () => {
    const external = 'https://evil.example/p.svg#g';
    const urlAttributes = [
      'fill',
      'stroke',
      'mask',
      'clip-path',
      'filter',
      'marker-start',
      'marker-mid',
      'marker-end',
      'cursor',
    ];
    const rect = (attribute: string, value: string) =>
      svg(10, 10, `<rect width="5" height="5" ${attribute}="${value}"/>`);

    it.each(urlAttributes)('refuses an external url() in %s, as in a style attribute', (name) => {
      const found = one({ 'a.svg': rect(name, `url(${external})`) });
      expect(found).toEqual({
        check: 'formats',
        code: 'formats.svg_active',
        severity: 'error',
        path: 'a.svg',
        actual: ['external_reference'],
        message: expect.any(String) as unknown,
        suggestion: expect.any(String) as unknown,
      });
      // The same detail as the reference written in a style attribute.
      expect(found).toEqual(one({ 'a.svg': rect('style', `${name}:url(${external})`) }));
    });

    it.each(urlAttributes)('accepts a same-document url(#grad) in %s', (name) => {
      const inert = `<defs><linearGradient id="grad"/></defs>${rect(name, 'url(#grad)')}`;
      expect(one({ 'a.svg': svg(10, 10, inert) })).toBeUndefined();
    });

    it.each([
      ['quoted', `url('${external}')`],
      ['spaced and upper case', `URL(  ${external}  )`],
      ['after a fallback list', 'url(#grad) , url(//evil.example/p.svg)'],
      ['behind a CSS comment', '/* x */url(https://evil.example/p.svg)'],
      ['a relative file', 'url(other.svg#g)'],
      ['entity-encoded', 'url(&#104;ttps://evil.example/p.svg)'],
      ['an SVG data URL', 'url(data:image/svg+xml;base64,PHN2Zz4=)'],
    ])('refuses a url() that is %s', (_, value) => {
      expect(one({ 'a.svg': rect('fill', value) })).toMatchObject({
        code: 'formats.svg_active',
        actual: ['external_reference'],
      });
    });

    it('refuses an animated value and reads any attribute, not a fixed list', () => {
      const animated = `<rect width="5" height="5"><animate attributeName="fill" values="red;url(${external})"/></rect>`;
      expect(one({ 'a.svg': svg(10, 10, animated) })).toMatchObject({
        actual: ['external_reference'],
      });
      expect(one({ 'b.svg': rect('lighting-color', `url(${external})`) })).toMatchObject({
        actual: ['external_reference'],
      });
    });

    it('accepts url() text that loads nothing: inside a CSS comment, after @import', () => {
      for (const value of ['/* url(https://x.test/a) */ red', "@import 'x.css'"])
        expect([value, one({ 'a.svg': rect('fill', value) })]).toEqual([value, undefined]);
    });
  });

  it('refuses an SVG with a DOCTYPE or a style sheet instruction', () => {
    const doctype = `<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x "y">]>\n${svg(1, 1)}`;
    expect(one({ 'a.svg': doctype })).toMatchObject({ actual: ['doctype'] });
    const sheet = `<?xml-stylesheet href="https://x.test/s.css"?>${svg(1, 1)}`;
    expect(one({ 'b.svg': sheet })).toMatchObject({ actual: ['external_reference'] });
  });

  it('refuses an SVG that is not well-formed XML, saying where', () => {
    expect(one({ 'a.svg': `<svg xmlns="http://www.w3.org/2000/svg">\n<g></svg>` })).toMatchObject({
      code: 'formats.mismatch',
      path: 'a.svg',
      line: 2,
      expected: 'svg',
      actual: 'text',
      message: expect.stringContaining('not well-formed XML (unexpected close tag)') as unknown,
    });
    expect(
      one({ 'b.svg': '<svg width=10 height=10 xmlns="http://www.w3.org/2000/svg"/>' }),
    ).toMatchObject({ code: 'formats.mismatch' });
    // HTML's named entities are not XML's: a browser shows an error instead of the drawing.
    expect(one({ 'c.svg': svg(1, 1, '<text>a&nbsp;b</text>') })).toMatchObject({
      code: 'formats.mismatch',
    });
  });

  it('accepts well-formed SVG with a declaration, comments, a byte-order mark, XML entities', () => {
    const drawing = svg(1, 1, '<text>&amp;&#160;&lt;</text><!-- note -->');
    expect(
      one({ 'a.svg': `\ufeff<?xml version="1.0" encoding="UTF-8"?>\n${drawing}\n` }),
    ).toBeUndefined();
  });

  it('accepts inert SVG: local fragments, embedded rasters, gradients', () => {
    const inert = svg(
      10,
      10,
      '<defs><linearGradient id="g"/></defs><rect fill="url(#g)"/><use href="#g"/>' +
        '<image href="data:image/png;base64,iVBORw0KGgo="/><style>.a{fill:url(#g)}</style>',
    );
    expect(one({ 'a.svg': inert })).toBeUndefined();
    expect(
      one({ 'b.svg': svg(1, 1, '<image href="data:image/svg+xml;base64,PHN2Zz4="/>') }),
    ).toMatchObject({
      code: 'formats.svg_active',
    });
  });
});
