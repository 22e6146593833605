// The page scanner against htmlparser2's Parser: wherever the scanner reads a page, its data
// (elements and their offsets, ids, references, title, viewport, base, body) must be exactly
// the Parser's, since `@n` in a finding names the element the editing outline numbers. Compared
// on the real sites of the corpus, on hand-written corner cases of htmlparser2's rules, and on
// thousands of pages put together at random from such pieces.
import { describe, expect, it } from 'vitest';
import { parsePageData, readPageData } from '../../src/html/page.js';
import { scanPageData } from '../../src/html/page-scan.js';
import { corpus, corpusMissing, readTree } from './corpus.js';

/** The scanner's data for `text`, which must be the Parser's; undefined where it gives up. */
function scannedAlike(text: string) {
  const scanned = scanPageData(text);
  if (scanned !== undefined) expect(scanned, text).toEqual(parsePageData(text));
  return scanned;
}

const corners = [
  // Implied ends, `</p>` and `</br>` as elements, a nested form ignored, end tags never opened.
  '<body><p>one<div>two</div><p>three<ul><li>a<li>b</ul><table><tr><td>x<td>y<tr><th>z</table>',
  '<p>text</p></p></br><br/></div></span><form id=a><form id=b action=x.html><input></form>',
  '<dl><dt>a<dd>b<dt>c</dl><select><option>1<option>2<optgroup><option>3</select><h1>a<h2>b',
  '<a href=a.html>one<a href=b.html>two</a><ruby>x<rt>y<rp>z</ruby><tbody><tr><tfoot>',
  '<html><head><link rel=stylesheet href=a.css><script src=a.js></script><body><p>x',
  // Comments, declarations, processing instructions, bogus end tags.
  '<!doctype html><!--a--><!----><!---><!-->x<!-- -- --!> --><p id="c">x<!-- --!-->y',
  '<!DOCTYPE html PUBLIC "x"><!x><!-><!--->z<?php echo 1 ?></ x></1></><p>a</p >b</p/ q>',
  'a < b <p>c<<p>d< /p><3 <a\thref="t.html"\n>e</a\n>',
  // Attributes: quotes, no values, names starting oddly, duplicates, case, entities.
  '<img src=a.png alt="x>y" title=\'q"\' data-x = "1" ismap SRC=b.png =c d="e"f=g>',
  '<a href="a.html?x=1&amp;y=2&lt;3&ampz&amp=" id=&quot;q>x</a><img src=&#97;.png srcset="b.png 1x,&#10;c.png 2x">',
  '<a href=x.html/><p/ id=p1 /><input value=a/b / ><img src="a.png"alt="x"/><a hr"ef=z>',
  '<p id=a></p><p id=a><p id=""></p><span ID=B>x</span><span id=b>y</span>',
  '<meta name=Viewport content="width=device-width"><meta name=viewport><base href=/x/><base href=/y/>',
  // Raw text: styles (their url()s), scripts, titles with entities, textarea, iframe.
  '<title> &nbsp; </title><style>a{background:url(a.png)}</style><style></style><title>x</title>',
  '<title>&#32;&Tab;&NewLine;</title><p>x',
  '<title>A &amp; B</title><style>p{} </STYLE x><script>if (a</b) "</scriptx>"</script ><p>x',
  '<script><!-- </script> --></script><textarea><p>no</textarea><iframe src=y.html><p></iframe>',
  '<xmp><a href=no.html></xmp><noembed><img src=n.png></noembed><noframes></noframes><p id=z>',
  '<TITLE>x</title><Style type="text/css">@import "b.css";</style ><body style="background:url(c.png)">',
  // `image` is `img`; deep nesting stops the read.
  '<image src=i.png></image><p>x',
  `${'<div>'.repeat(600)}<img src=deep.png>`,
  `${'<span>'.repeat(511)}<br><img src=x.png>`,
];

/** Pieces of markup a random page is made of: htmlparser2's rules and their corners. */
const pieces = [
  '<p>',
  '</p>',
  '<div class=a>',
  '</div>',
  '<li>',
  '<ul>',
  '</ul>',
  '<table><tr><td>',
  '</td>',
  '<form>',
  '</form>',
  '<br>',
  '</br>',
  '<img src="x.png" alt=x>',
  '<a href="b.html">',
  '</a>',
  '<h2 id=h>',
  '</h2>',
  '<body>',
  '<head>',
  '<option>',
  '<select>',
  '<input value="a&amp;b">',
  '<section id="s">',
  '</section>',
  '<title>',
  '</title>',
  '<style>a{background:url(s.png)}</style>',
  '<script>x<y</script>',
  '<!-- c -->',
  '<!--->',
  '<!doctype html>',
  '<?x?>',
  '</ z>',
  '</>',
  ' text ',
  '&amp;',
  '&nbsp;',
  '<',
  '>',
  '"',
  "'",
  '=',
  '/',
  '\n',
  'id=x ',
  '<p/>',
  '<meta name=viewport content=w>',
  '<base href=/b/>',
  '<link rel=icon href=i.png>',
  '<span style="background:url(u.png)">',
  '</span>',
  '<P ID=Q>',
  '</P>',
  '<!--',
  '-->',
  '--!>',
  '<textarea>',
  '</textarea>',
  '<iframe>',
  '</iframe>',
  '<image>',
  '<tr>',
  '<td>',
  '<dd>',
  '<dt>',
  '&#32;',
  '\t',
  '</br >',
];

/** A seeded generator (a linear congruential one): the same pages on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x80000000;
}

describe('the page scanner reads pages exactly as htmlparser2 does', () => {
  it.each(corners)('a corner case: %s', (text) => {
    expect(scannedAlike(text)).toBeDefined();
  });

  it('reads thousands of random pages alike, and scans most of them', () => {
    const next = random(11);
    let scanned = 0;
    const pages = 8000;
    for (let i = 0; i < pages; i++) {
      const count = 1 + Math.floor(next() * 40);
      const text = Array.from({ length: count }, () => pieces[Math.floor(next() * pieces.length)])
        .join('')
        .concat('<p>end</p>');
      if (scannedAlike(text) !== undefined) scanned++;
    }
    expect(scanned).toBeGreaterThan(pages / 3);
  });

  it('reads strings of markup characters alike, where tokenizer rules meet', () => {
    const next = random(5);
    const alphabet = ['<', '>', '/', '!', '-', '=', '"', "'", ' ', '\n', '&', ';', '#', '?', '['];
    const words = [
      'a',
      'p',
      'br',
      'amp',
      'id',
      'href',
      'title',
      'style',
      'form',
      'li',
      'img',
      'td',
    ];
    const symbols = [...alphabet, ...words, 'x', 'P', 'A', 'src', 'body', 'tr'];
    let scanned = 0;
    for (let i = 0; i < 20_000; i++) {
      const count = 1 + Math.floor(next() * 30);
      const text = Array.from(
        { length: count },
        () => symbols[Math.floor(next() * symbols.length)],
      );
      if (scannedAlike(text.join('')) !== undefined) scanned++;
    }
    expect(scanned).toBeGreaterThan(10_000);
  });

  it('leaves foreign content, CDATA, <plaintext> and markup unfinished at the end to the Parser', () => {
    for (const text of [
      '<p>a<svg><clipPath/></svg>',
      '<math><mi>x</mi></math>',
      '<p><![CDATA[x]]></p>',
      '<plaintext><p>',
      '<p>a<img src="x.png"',
      '<p><!-- open',
      '<style>a{}',
      '<p>\x0f',
    ]) {
      expect(scanPageData(text), text).toBeUndefined();
      expect(readPageData(text)).toEqual(parsePageData(text));
    }
  });

  const why = corpusMissing('sites');
  if (why) console.warn(`skipped: ${why}`);
  it.skipIf(!!why)('reads every page of the corpus sites alike', () => {
    const pages = [...readTree(new URL('sites/', corpus))].filter(([path]) =>
      path.endsWith('.html'),
    );
    expect(pages.length).toBeGreaterThan(20);
    let scanned = 0;
    for (const [, bytes] of pages) if (scannedAlike(new TextDecoder().decode(bytes))) scanned++;
    expect(scanned).toBeGreaterThan(0);
  });
});
