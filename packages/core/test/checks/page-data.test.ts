// A page's data is plain data: the facts made of a copy of it place every element as the page's
// own facts do, asking for the page's text only when something is placed.
import { describe, expect, it } from 'vitest';
import { pageFacts, readPage, readPageData } from '../../src/html/page.js';

const text = [
  '<!doctype html><html><head><title>Shop</title>',
  '<style>body { background: url(img/back.png) }</style></head>',
  '<body><p id="a">one</p>',
  '<p id="a">two</p><img src="img/x.png" srcset="img/y.png 2x">',
  '<svg><title>drawing</title><image href="img/z.png"/></svg>',
  '<section id="s"><a href="missing.html">gone</a></section>',
].join('\n');

describe('page data', () => {
  it('makes facts equal to a page read here, placing every element and reference alike', () => {
    const here = readPage(text);
    let decoded = 0;
    const there = pageFacts(structuredClone(readPageData(text)), () => {
      decoded += 1;
      return text;
    });
    expect(there).toEqual({ ...here, placeOf: expect.any(Function) as unknown });
    expect(decoded).toBe(0);
    const elements = Array.from({ length: 14 }, (_, node) => here.placeOf(node).element);
    expect(elements).toEqual(expect.arrayContaining(['#a', '#s', '@0', '@8', undefined]));
    for (let node = 0; node < 14; node++) expect(there.placeOf(node)).toEqual(here.placeOf(node));
    for (const ref of here.references)
      expect(there.placeOf(ref.node, ref.offset)).toEqual(here.placeOf(ref.node, ref.offset));
    expect(decoded).toBe(1); // the text is decoded once, for the first place asked for
  });
});
