import { describe, expect, it } from 'vitest';
import { checkFolder } from '@galley/core';
import { html, projectJson, svg, webFolder, folderOf } from './fixtures.js';

// Inputs shaped to make backtracking regular expressions or recursive walks blow up. Each must
// simply give its answer (a quadratic scanner would not finish within the test timeout).
const big = 300_000;
const codesOf = (files: Record<string, string>) =>
  checkFolder(webFolder(files)).violations.map((v) => v.code);

describe('hostile input', () => {
  it('style sheets: url( followed by a sea of spaces, or repeated without end', () => {
    expect(codesOf({ 'a.css': `a{b:url(${' '.repeat(big)}` })).toEqual([]);
    expect(codesOf({ 'b.css': 'url('.repeat(big / 4) })).toEqual([]);
    // A string the file's end closes is still a string: the browser imports it.
    expect(codesOf({ 'c.css': `@import ${'"'.padEnd(big, 'x')}` })).toEqual(['links.missing']);
    expect(codesOf({ 'd.css': `/*${' '.repeat(big)}url(x.png)` })).toEqual([]);
  });

  it('style sheets: escapes, names and strings that never end', () => {
    expect(codesOf({ 'a.css': `u\\72${'\\72'.repeat(big / 3)}(x.png)` })).toEqual([]);
    expect(codesOf({ 'b.css': `url(${'\\41 '.repeat(big / 4)})` })).toEqual(['links.missing']);
    expect(codesOf({ 'c.css': `"${'\\41'.repeat(big / 3)}` })).toEqual([]);
    expect(codesOf({ 'd.css': '\\'.repeat(big) })).toEqual([]);
    expect(codesOf({ 'e.css': 'image-set('.repeat(big / 10) })).toEqual([]);
    expect(codesOf({ 'f.css': `image-set(${'"#a"'.repeat(big / 4)}` })).toEqual([]);
    expect(codesOf({ 'g.css': `url(a b${'\\)'.repeat(big / 2)}` })).toEqual([]);
    expect(codesOf({ 'h.css': `${'@\\69mport'.repeat(big / 10)}` })).toEqual([]);
  });

  it('pages: many comments and raw text elements, end tags in raw text, markup never ended', () => {
    const comments = html({
      body: `<!-- a -- b --!x -->${'<!--x-->'.repeat(big / 8)}<img src=x.png alt="">`,
    });
    expect(codesOf({ 'index.html': comments })).toEqual(['links.missing']);
    const styles = html({
      body: `${'<style>a{}</styl</style>'.repeat(big / 24)}<a href=y.html>y</a>`,
    });
    expect(codesOf({ 'index.html': styles })).toEqual(['links.missing']);
    const ends = html({
      body: `<script>${'</</scrip'.repeat(big / 9)}</script><a href=z.html>z</a>`,
    });
    expect(codesOf({ 'index.html': ends })).toEqual(['links.missing']);
    for (const open of ['<!--', '<style>', '<a href="', '<a ', '<!x', '</a '])
      expect(codesOf({ 'index.html': html({ body: `${open}${'-'.repeat(big)}` }) })).toEqual([]);
  });

  it('srcset: a URL with a long run of commas', () => {
    const page = html({ body: `<img alt="" srcset="a.png${','.repeat(big)} b.png 2x">` });
    expect(codesOf({ 'index.html': page })).toEqual(['links.missing', 'links.missing']);
  });

  it('SVG prologs that never end', () => {
    expect(codesOf({ 'a.svg': `<!DOCTYPE svg [${']'.repeat(big)}` })).toEqual(['formats.mismatch']);
    expect(codesOf({ 'b.svg': `<!DOCTYPE${' '.repeat(big)}` })).toEqual(['formats.mismatch']);
    expect(codesOf({ 'c.svg': `${'<!---->'.repeat(big / 7)}${svg(1, 1)}` })).toEqual([]);
  });

  it('SVG attribute values: url( followed by a sea of spaces, or repeated without end', () => {
    const rect = (value: string) => svg(1, 1, `<rect fill="${value}"/>`);
    expect(codesOf({ 'a.svg': rect(`url(${' '.repeat(big)}#g`) })).toEqual([]);
    expect(codesOf({ 'a2.svg': rect(`url(${' '.repeat(big)}#g)`) })).toEqual([]);
    expect(codesOf({ 'b.svg': rect('url('.repeat(big / 4)) })).toEqual([]);
    expect(codesOf({ 'c.svg': rect(`${'url(#g) '.repeat(big / 8)}`) })).toEqual([]);
    expect(codesOf({ 'd.svg': rect(`/*${' '.repeat(big)}url(https://x.test/p)`) })).toEqual([]);
    expect(codesOf({ 'e.svg': rect(`${'x '.repeat(big / 2)}url(https://x.test/p)`) })).toEqual([
      'formats.svg_active',
    ]);
  });

  it('SVG sizes: long runs of digits, a root tag that never ends', () => {
    const root = (attributes: string) => `<svg xmlns="http://www.w3.org/2000/svg" ${attributes}/>`;
    expect(codesOf({ 'a.svg': root(`width="${'1'.repeat(big)}%" height="1"`) })).toEqual([]);
    expect(codesOf({ 'b.svg': root(`width="${'1'.repeat(big)}.x" height="1"`) })).toEqual([]);
    expect(codesOf({ 'c.svg': root(`width="-0.${'0'.repeat(big)}1" height="1"`) })).toEqual([
      'formats.dimensions',
    ]);
    // Not XML (a repeated attribute, a tag that never ends): refused as such, in linear time.
    expect(codesOf({ 'd.svg': `<svg width="0" ${'a="" '.repeat(big / 5)}` })).toEqual([
      'formats.mismatch',
    ]);
  });

  it('pages and SVG nested deeper than browsers nest (htmlparser2 is quadratic in depth)', () => {
    const depth = 100_000;
    const page = html({
      body: `${'<div>'.repeat(depth)}<img src="x.png" alt="">${'</div>'.repeat(depth)}`,
    });
    const report = checkFolder(folderOf({ 'project.json': projectJson(), 'index.html': page }));
    expect(report.violations).toEqual([
      expect.objectContaining({ code: 'pages.nesting', path: 'index.html', expected: 512 }),
    ]);
    const deepSvg = svg(1, 1, `${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}`);
    expect(checkFolder(webFolder({ 'd.svg': deepSvg })).violations).toEqual([
      expect.objectContaining({
        code: 'formats.svg_active',
        actual: ['nesting'],
        message: expect.stringContaining('deeper than 512 levels') as string,
      }),
    ]);
    // Active content seen before the depth gave out keeps the catalog's message.
    const activeDeepSvg = svg(1, 1, `<script/>${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}`);
    const [active] = checkFolder(webFolder({ 'd.svg': activeDeepSvg })).violations;
    expect(active).toMatchObject({ code: 'formats.svg_active', actual: ['nesting', 'script'] });
    expect(active!.message).toMatch(/^The SVG holds active content/);
  });

  it('reads pages nested up to the limit', () => {
    const depth = 500;
    const page = html({
      body: `${'<div>'.repeat(depth)}<img src="x.png" alt="">${'</div>'.repeat(depth)}`,
    });
    const report = checkFolder(folderOf({ 'project.json': projectJson(), 'index.html': page }));
    expect(report.violations).toEqual([
      expect.objectContaining({ code: 'links.missing', element: `@${depth + 1}` }),
    ]);
  });
});
