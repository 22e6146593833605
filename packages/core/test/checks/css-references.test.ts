import { describe, expect, it } from 'vitest';
import { cssReferences } from '../../src/html/css.js';

const urlsOf = (css: string) => cssReferences(css).map((ref) => ref.url);
const evil = 'https://evil.example/a.png';

describe('cssReferences: the URLs a browser loads from a style sheet', () => {
  it.each([
    ['a hex escape', 'u\\72l'],
    ['a hex escape ended by a space', 'u\\72 l'],
    ['a hex escape ended by a CR LF pair', 'u\\72\r\nl'],
    ['a six-digit hex escape', 'u\\000072l'],
    ['every letter escaped, in capitals', '\\55\\52\\4C'],
    ['an escaped non-hex letter', 'u\\rl'],
    ['capitals', 'URL'],
  ])('reads url( written with %s', (_, name) => {
    expect(urlsOf(`body{background:${name}(${evil})}`)).toEqual([evil]);
    expect(urlsOf(`body{background:${name}("${evil}")}`)).toEqual([evil]);
  });

  it('reads @import written with escapes, before a string or a url()', () => {
    expect(cssReferences('@\\69mport "a.css";\n@IMPORT/**/url(b.css);')).toEqual([
      { url: 'a.css', offset: 0, span: { start: 11, end: 16 }, kind: 'import' },
      { url: 'b.css', offset: 30, span: { start: 34, end: 39 }, kind: 'import' },
    ]);
  });

  it('decodes escapes in the URL, and gives the span of its text', () => {
    const css = 'a{b:url( \\68ttps://e.example/a\\)b.png );c:url("x\\"y")}';
    expect(cssReferences(css)).toEqual([
      { url: 'https://e.example/a)b.png', offset: 4, span: { start: 9, end: 37 }, kind: 'url' },
      { url: 'x"y', offset: 42, span: { start: 47, end: 51 }, kind: 'url' },
    ]);
  });

  it('reads image-set() strings, not other strings', () => {
    const css = [
      'a{b:image-set("a.png" 1x, url(b.png) 2x, "c.png" type("image/png"))}',
      "c{d:-webkit-image-set('d.png' 1x)}",
      'e{content:"e.png";font-family:"f.png"}',
    ].join('\n');
    expect(urlsOf(css)).toEqual(['a.png', 'b.png', 'c.png', 'd.png']);
  });

  it('ends strings, comments and bad URLs where the tokenizer does', () => {
    // Each hides nothing from a browser; a scanner that ended a token elsewhere would miss the URL.
    expect(urlsOf(`a{content:"url(";b:url(${evil});c:"x"}`)).toEqual([evil]);
    expect(urlsOf(`a{content:"/*";b:url(${evil});c:"*/"}`)).toEqual([evil]);
    expect(urlsOf(`a{content:"\\41\n";b:url(${evil});c:"x"}`)).toEqual([evil]);
    expect(urlsOf(`a{content:"\\\n;b:url(${evil});c:"x"}`)).toEqual([]); // a line continuation
    expect(urlsOf(`a{b:url(x"y);c:url(${evil});d:"}`)).toEqual([evil]);
    expect(urlsOf(`a{b:url(x\\);c:url(${evil})}`)).toEqual([]); // one bad URL up to the last `)`
    expect(urlsOf(`<!--url(${evil})-->`)).toEqual([evil]);
    expect(urlsOf(`/* url(x.png) */ a{content:"b"} /* url(${evil})`)).toEqual([]);
  });

  it('reads what the end of the sheet closes', () => {
    expect(urlsOf(`a{b:url(${evil}`)).toEqual([evil]);
    expect(urlsOf(`a{b:url(  ${evil}  `)).toEqual([evil]);
    expect(urlsOf(`@import "${evil}`)).toEqual([evil]);
    expect(urlsOf('a{b:url(')).toEqual(['']);
  });

  it('is not fooled by names that merely end in url', () => {
    expect(
      urlsOf('a{b:5url(x.png);c:#url(y.png);d:-url(z.png);e:my-url(w.png);f:"url(v.png)"}'),
    ).toEqual([]);
  });

  // Names are read a run of plain code points at a time; escapes and case must still count as
  // the tokenizer counts them.
  it('reads names that mix plain runs and escapes, lowercasing ASCII letters only', () => {
    expect(urlsOf(`a{b:Ur\\6C(${evil})}`)).toEqual([evil]);
    expect(urlsOf(`a{b:-WEBKIT-Image-\\53 et("${evil}" 1x)}`)).toEqual([evil]);
    // The Kelvin sign lowercases to k in JavaScript, never in CSS: not image-set.
    expect(urlsOf(`a{b:-web\u212Ait-image-set("${evil}" 1x)}`)).toEqual([]);
    // Longer than any name asked about, by one letter or by an escape: a function, not url().
    expect(urlsOf(`a{b:-webkit-image-sets("${evil}")}`)).toEqual([]);
    expect(urlsOf(`a{b:-webkit-image-set\\73("${evil}")}`)).toEqual([]);
  });

  it('reads URLs that mix plain runs, escapes and other code points', () => {
    expect(urlsOf('a{b:url(a\\62 c\u00a0d\0e.png)}')).toEqual(['abc\u00a0d\ufffde.png']);
    expect(urlsOf('a{b:url(a\x01b.png)}')).toEqual([]);
  });
});
