import { describe, expect, it } from 'vitest';
import {
  convertSite,
  externalLoads,
  styleSheetLoads,
  vendoredPath,
  vendorSite,
  type FetchedResource,
} from '@galley/core';
import { converted, folderOf, page, png, textOf } from './helpers.js';

// Vendoring's pure part: which URLs a site loads from other origins, where their copies go, and
// the references rewritten to them (the fetching itself is the CLI's: apps/cli/test/vendor.test.ts).

const encoder = new TextEncoder();
const fonts = 'https://fonts.example.com/css?family=Open+Sans:400,700';
const site = {
  'my-site/index.html': page(
    'Home',
    [
      `<img src="https://img.example.com/a.png" srcset="https://img.example.com/a.png 1x, //img.example.com/b%20c.PNG 2x" alt="">`,
      `<script src="https://cdn.example.com/lib.js?v=1"></script>`,
      `<iframe src="https://video.example.com/embed/1"></iframe>`,
      `<a href="https://elsewhere.example.com/">a link, never fetched</a>`,
    ].join(''),
  ).replace('</head>', `<link rel="stylesheet" href="${fonts}"></head>`),
  'my-site/css/style.css': 'body { background: url(https://img.example.com/a.png#x) }',
};
const fontCss = `@font-face { src: url(/s/open.woff2) format("woff2"), url(https://gone.example.com/x.ttf); }`;

describe('vendoring', () => {
  it('lists the loads from other origins a fetch can bring, embeds and links left out', () => {
    expect(externalLoads(folderOf(site))).toEqual([
      'https://cdn.example.com/lib.js?v=1',
      fonts,
      'https://img.example.com/a.png',
      'https://img.example.com/b%20c.PNG',
    ]);
    expect(styleSheetLoads(fontCss, fonts)).toEqual([
      'https://fonts.example.com/s/open.woff2',
      'https://gone.example.com/x.ttf',
    ]);
  });

  it('names copies after host and path, a query hashed, the extension from the type', () => {
    expect(vendoredPath('https://img.example.com/b%20c.PNG')).toBe(
      'vendor/img.example.com/b-c.png',
    );
    expect(vendoredPath(fonts, 'text/css; charset=utf-8')).toMatch(
      /^vendor\/fonts\.example\.com\/css-[0-9a-f]{8}\.css$/,
    );
    expect(vendoredPath('http://localhost:8080/x', 'font/woff2')).toBe(
      'vendor/localhost-8080/x.woff2',
    );
  });

  it('places the copies in the site and points every load at them; the result converts', () => {
    const fetched = new Map<string, FetchedResource>([
      [fonts, { bytes: encoder.encode(fontCss), contentType: 'text/css' }],
      ['https://fonts.example.com/s/open.woff2', { bytes: encoder.encode('wOF2 font') }],
      ['https://img.example.com/a.png', { bytes: png }],
      ['https://img.example.com/b%20c.PNG', { bytes: png }],
      ['https://cdn.example.com/lib.js?v=1', { bytes: encoder.encode('let a;') }],
    ]);
    const { folder, placed } = vendorSite(folderOf(site), fetched);
    const css = placed.get(fonts) ?? '';
    expect(css).toMatch(/^my-site\/vendor\/fonts\.example\.com\/css-[0-9a-f]{8}\.css$/);
    expect(textOf(folder, css)).toBe(
      '@font-face { src: url(s/open.woff2) format("woff2"), url(https://gone.example.com/x.ttf); }',
    );
    const html = textOf(folder, 'my-site/index.html');
    expect(html).toContain(
      'src="vendor/img.example.com/a.png" srcset="vendor/img.example.com/a.png 1x, vendor/img.example.com/b-c.png 2x"',
    );
    expect(html).toMatch(/<script src="vendor\/cdn\.example\.com\/lib-[0-9a-f]{8}\.js"><\/script>/);
    expect(html).toContain('<iframe src="https://video.example.com/embed/1">');
    expect(textOf(folder, 'my-site/css/style.css')).toBe(
      'body { background: url(../vendor/img.example.com/a.png#x) }',
    );
    // What could not be fetched stays external: dropped here, the rest converts.
    const result = converted(convertSite(folder, { dropExternal: true }));
    expect(result.site.warnings.map((w) => [w.code, w.target])).toEqual([
      ['site.embed_linked', 'https://video.example.com/embed/1'],
      ['site.external_dropped', 'https://gone.example.com/x.ttf'],
    ]);
  });
});
