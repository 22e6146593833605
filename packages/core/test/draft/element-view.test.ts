import { describe, expect, it } from 'vitest';
import { Draft, PREVIEW_ATTRIBUTE, PREVIEW_SLOT_ATTRIBUTE } from '../../src/index.js';
import type { ElementHandle } from '../../src/index.js';

function open(html: string): Draft {
  const opened = Draft.open(html);
  if (!opened.ok) throw new Error(opened.errors[0]!.message);
  return opened.draft;
}

const PAGE =
  '<!doctype html><html><head><title>t</title></head><body>' +
  '<h1 id="dup">One</h1><p id="dup">Two</p><ul><li>a</li><li>b</li></ul></body></html>';

describe('element handles', () => {
  it('a handle keeps naming its element while numbers shift around it', () => {
    const draft = open(PAGE);
    const second = draft.elements.at(2)!; // the <p id="dup">, not the first #dup
    expect(draft.elements.tagOf(second)).toBe('p');
    const inserted = draft.apply({ kind: 'insert', parent: '@0', before: '@1', html: '<hr>' });
    expect(inserted.ok).toBe(true);
    expect(draft.elements.numberOf(second)).toBe(3);
    expect(draft.elements.tagOf(draft.elements.at(3)!)).toBe('p');
    draft.undo();
    expect(draft.elements.numberOf(second)).toBe(2);
  });

  it('a removed element has no number; an undo brings the same element back', () => {
    const draft = open(PAGE);
    const list = draft.elements.at(3)!;
    expect(draft.apply({ kind: 'remove', target: '@3' }).ok).toBe(true);
    expect(draft.elements.numberOf(list)).toBeNull();
    draft.undo();
    expect(draft.elements.numberOf(list)).toBe(3);
  });

  it('<body> is number 0', () => {
    const draft = open(PAGE);
    expect(draft.elements.numberOf(draft.elements.at(0)!)).toBe(0);
  });

  it('reads attributes as written and builds an element with changed ones, page untouched', () => {
    const draft = open('<body><a href="a.html?x=1&amp;y=2" class="c" title="t">go</a></body>');
    const link = draft.elements.at(1)!;
    expect(draft.elements.attributesOf(link)).toEqual([
      ['href', 'a.html?x=1&amp;y=2'],
      ['class', 'c'],
      ['title', 't'],
    ]);
    expect(draft.elements.outerHtmlWith(link, { class: null, href: 'b.html', id: 'n' })).toBe(
      '<a href="b.html" title="t" id="n">go</a>',
    );
    expect(draft.elements.outerHtml(link)).toBe(
      '<a href="a.html?x=1&amp;y=2" class="c" title="t">go</a>',
    );
  });

  it('the preview body marks every element with its number and leaves the page as it was', () => {
    const html = `<!doctype html><html><head></head><body><div ${PREVIEW_ATTRIBUTE}="99"><p>x</p></div><svg><rect></rect></svg></body></html>`;
    const draft = open(html);
    const before = draft.html();
    const preview = draft.elements.marked('body');
    expect(preview.html).toBe(
      `<div ${PREVIEW_ATTRIBUTE}="1"><p ${PREVIEW_ATTRIBUTE}="2">x</p></div><svg ${PREVIEW_ATTRIBUTE}="3"><rect ${PREVIEW_ATTRIBUTE}="4"/></svg>`,
    );
    const numbers = preview.elements.map((handle: ElementHandle) =>
      draft.elements.numberOf(handle),
    );
    expect(numbers).toEqual([0, 1, 2, 3, 4]);
    expect(draft.elements.marked('document').html).toBe(
      `<!doctype html><html><head></head><body>${preview.html}</body></html>`,
    );
    expect(draft.html()).toBe(before);
  });
});

describe('element neighbours', () => {
  it('finds the parent and the sibling elements, skipping text between them', () => {
    const draft = open(
      '<body><ul><li>a</li> text <li>b</li><li>c</li></ul><img src="x.png"></body>',
    );
    const view = draft.elements;
    const [list, a, b, c, img] = [1, 2, 3, 4, 5].map((n) => view.at(n)!);
    expect(view.parentOf(b!)).toBe(list);
    expect(view.parentOf(list!)).toBe(view.at(0));
    expect(view.parentOf(view.at(0)!)).toBeNull();
    expect(view.previousOf(b!)).toBe(a);
    expect(view.nextOf(b!)).toBe(c);
    expect(view.previousOf(a!)).toBeNull();
    expect(view.nextOf(c!)).toBeNull();
    expect(view.canHoldElements(list!)).toBe(true);
    expect(view.canHoldElements(img!)).toBe(false);
    expect(view.holdsTextOnly(a!)).toBe(true);
    expect(view.holdsTextOnly(list!)).toBe(false);
    draft.apply({ kind: 'remove', target: '@3' });
    expect(view.parentOf(b!)).toBeNull();
  });
});

describe('changes told to a preview', () => {
  const SECTIONS =
    '<body><main><section><h2>A</h2><p>a</p></section><section><h2>B</h2><p>b</p></section></main></body>';

  it('names the elements whose children changed and the first number that moved', () => {
    const draft = open(SECTIONS);
    const view = draft.elements;
    const [main, first, , , second] = [1, 2, 3, 4, 5].map((n) => view.at(n)!);
    const mark = view.changeMark;
    expect(view.changesSince(mark)).toEqual({ parents: [], from: Infinity });
    draft.apply({ kind: 'move', target: '@5', parent: '@1', before: '@2' });
    expect(view.changesSince(mark)).toEqual({ parents: [main], from: 2 });
    const moved = view.changeMark;
    draft.apply({ kind: 'swap', target: '@3', html: 'new' }); // the first section's <h2>, now 3
    expect(view.changesSince(moved)).toEqual({ parents: [view.at(3)], from: Infinity });
    draft.undo();
    draft.undo();
    expect(view.inOrder()).toEqual([
      view.at(0),
      main,
      first,
      view.at(3),
      view.at(4),
      second,
      view.at(6),
      view.at(7),
    ]);
    expect(view.changesSince(view.changeMark + 1)).toBeNull();
  });

  it('tells no more than its last 256 changes: a preview further behind draws anew', () => {
    const draft = open(SECTIONS);
    const view = draft.elements;
    const mark = view.changeMark;
    for (let i = 0; i < 130; i++) {
      draft.apply({ kind: 'insert', parent: '@1', html: '<p>x</p>' });
      draft.undo();
    }
    expect(view.changesSince(mark)).toBeNull();
    expect(view.changesSince(view.changeMark - 256)?.parents).toHaveLength(1);
  });

  it('marks the content of an element, holding the children a preview already shows as slots', () => {
    const draft = open(SECTIONS);
    const view = draft.elements;
    const main = view.at(1)!;
    draft.apply({ kind: 'insert', parent: '@1', before: '@5', html: 'text <div><b>new</b></div>' });
    const [first, second] = view
      .childrenOf(main)
      .filter((_, i, all) => i === 0 || i === all.length - 1);
    const content = view.markedContent(main, (child) => child === first || child === second);
    expect(content.html).toBe(
      `<template ${PREVIEW_SLOT_ATTRIBUTE}="0"></template>text <div ${PREVIEW_ATTRIBUTE}="5"><b ${PREVIEW_ATTRIBUTE}="6">new</b></div><template ${PREVIEW_SLOT_ATTRIBUTE}="1"></template>`,
    );
    expect(content.slots).toEqual([first, second]);
    expect([...content.marked]).toEqual([
      [5, view.at(5)],
      [6, view.at(6)],
    ]);
    // The page itself keeps no mark.
    expect(draft.html()).not.toContain(PREVIEW_ATTRIBUTE);
  });

  it('numbers each element’s parent in the marked page', () => {
    const draft = open(SECTIONS);
    expect(draft.elements.marked('body').parents).toEqual([-1, 0, 1, 2, 2, 1, 5, 5]);
  });
});
