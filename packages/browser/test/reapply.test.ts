import { describe, expect, it } from 'vitest';
import type { Draft, Operation } from '@galley/core';
import { planReapply } from '../src/screen/editor/reapply.js';
import type { Step } from './reapply-helpers.js';
import { applied, at, byHand, logOf, result } from './reapply-helpers.js';

const page = (body: string) =>
  `<!doctype html><html><head><title>Home</title></head><body>${body}</body></html>`;

/** No ids anywhere: every element is found by its path. */
const base = page(
  '<header><h1>Galley</h1></header>' +
    '<main>' +
    '<section><h2>News</h2><p>First news</p><p>Second news</p><ul><li>One</li><li>Two</li></ul></section>' +
    '<section><h2>Events</h2><p>Party on Friday</p><p class="note">Bring food</p></section>' +
    '</main>' +
    '<footer><p>Contact us</p></footer>',
);

/** Steps that locate their elements by tag and text, on whichever page they run. */
const find = (tag: string, text: string) => (draft: Draft) => at(draft, tag, text);
/** The first element with this tag whose text starts so. */
const starting = (tag: string, prefix: string) => (draft: Draft) =>
  `@${draft.outline().find((e) => e.tag === tag && e.text.startsWith(prefix))!.node}`;
/** The last element with this tag and text. */
const last = (tag: string, text: string) => (draft: Draft) =>
  `@${draft.outline().findLast((e) => e.tag === tag && e.text === text)!.node}`;
const news = starting('section', 'News');

const everyKind: Step[] = [
  (d) => ({ kind: 'remove', target: find('p', 'Second news')(d) }),
  (d) => ({ kind: 'insert', parent: news(d), html: '<p>Third news</p>' }),
  (d) => ({
    kind: 'move',
    target: find('p', 'Bring food')(d),
    parent: starting('section', 'Events')(d),
    before: find('p', 'Party on Friday')(d),
  }),
  (d) => ({ kind: 'duplicate', target: find('li', 'Two')(d) }),
  (d) => ({ kind: 'replace', target: find('h2', 'Events')(d), html: '<h2>Events this week</h2>' }),
  (d) => ({ kind: 'swap', target: find('li', 'One')(d), html: 'One <em>first</em>' }),
  // On elements the person's own changes created:
  (d) => ({ kind: 'insert', parent: find('p', 'Third news')(d), html: ' <strong>new</strong>' }),
  (d) => ({ kind: 'remove', target: last('li', 'Two')(d) }), // the copy
];

/** Applies `edit` (the other person's saved changes) to the base. */
const saved = (...edits: Step[]) => byHand(base, edits);

describe('planReapply', () => {
  it('on an unchanged page sends operations that give the same page', () => {
    const operations = logOf(base, everyKind);
    const plan = planReapply(base, operations, base);
    expect(plan.skipped).toEqual([]);
    expect(result(base, plan)).toBe(applied(base, operations));
  });

  it('lands every operation on its element when other elements changed and some were added above', () => {
    const current = saved(
      (d) => ({ kind: 'swap', target: find('h1', 'Galley')(d), html: 'Galley, the editor' }),
      (d) => ({ kind: 'swap', target: find('p', 'Contact us')(d), html: 'Write to us' }),
      { kind: 'insert', parent: '@0', html: '<nav><a href="/">Home</a></nav>', before: '@1' },
      (d) => ({
        kind: 'insert',
        parent: starting('main', '')(d),
        html: '<aside><p>Sale!</p></aside>',
        before: news(d),
      }),
    );
    const plan = planReapply(base, logOf(base, everyKind), current);
    expect(plan.skipped).toEqual([]);
    expect(plan.operations).toHaveLength(everyKind.length);
    expect(result(current, plan)).toBe(byHand(current, everyKind));
  });

  it('answers with references valid at each step of the newer page (#id only when unique there)', () => {
    const withIds = page(
      '<main id="main"><p id="a">A</p><p id="b">B</p></main><p id="b">Other B</p>',
    );
    const operations: Operation[] = [
      { kind: 'remove', target: '#a' },
      { kind: 'insert', parent: '#main', html: '<p id="c">C</p>' },
      { kind: 'remove', target: '@2' }, // <p id="b">B</p>, whose id is not unique
    ];
    const plan = planReapply(withIds, operations, withIds);
    expect(plan.operations).toEqual([
      { kind: 'remove', target: '#a' },
      { kind: 'insert', parent: '#main', html: '<p id="c">C</p>' },
      { kind: 'remove', target: '@2' },
    ]);
    expect(result(withIds, plan)).toBe(applied(withIds, operations));
  });

  describe('ids', () => {
    it('an id unique on both sides finds its element wherever it went', () => {
      const before = page('<div><p id="x">X</p></div><div><p>Y</p></div>');
      const current = page('<h1>Title</h1><div><p>Y</p><p id="x">X, edited</p></div>');
      const plan = planReapply(before, [{ kind: 'remove', target: '#x' }], current);
      expect(plan.operations).toEqual([{ kind: 'remove', target: '#x' }]);
      expect(result(current, plan)).toBe(page('<h1>Title</h1><div><p>Y</p></div>'));
    });

    it('an id the other person gave a second element: the change stays on its own element', () => {
      const before = page('<section><p id="x">Mine</p></section>');
      // `#x` now names the new <div> (the first with that id); the person meant the paragraph.
      const current = page('<div id="x">Theirs</div><section><p id="x">Mine</p></section>');
      const plan = planReapply(before, [{ kind: 'remove', target: '#x' }], current);
      expect(plan.operations).toEqual([{ kind: 'remove', target: '@3' }]);
      expect(result(current, plan)).toBe(page('<div id="x">Theirs</div><section></section>'));
    });

    it('an id already shared in the base: `#x` means the first one, found by its path', () => {
      const before = page('<p id="x">First</p><p id="x">Second</p>');
      const current = page('<h1>New</h1><p id="x">First</p><p id="x">Second</p>');
      const plan = planReapply(
        before,
        [{ kind: 'swap', target: '#x', html: 'First, edited' }],
        current,
      );
      expect(plan.operations).toEqual([{ kind: 'swap', target: '@2', html: 'First, edited' }]);
      expect(result(current, plan)).toBe(
        page('<h1>New</h1><p id="x">First, edited</p><p id="x">Second</p>'),
      );
    });

    it('a copy whose id comes out otherwise on the newer page is still the copy', () => {
      const before = page('<p id="x">X</p>');
      const current = page('<p id="x">X</p><p id="x-2">Taken</p>');
      const operations = logOf(before, [
        { kind: 'duplicate', target: '#x' },
        { kind: 'swap', target: '#x-2', html: 'Copy' }, // A's copy is x-2; B's will be x-3
      ]);
      const plan = planReapply(before, operations, current);
      expect(plan.skipped).toEqual([]);
      expect(plan.operations).toEqual([
        { kind: 'duplicate', target: '#x' },
        { kind: 'swap', target: '#x-3', html: 'Copy' },
      ]);
      expect(result(current, plan)).toBe(
        page('<p id="x">X</p><p id="x-3">Copy</p><p id="x-2">Taken</p>'),
      );
    });

    it('the elements inside a copy pair as their originals do', () => {
      const before = page('<div id="card"><h2>Card</h2><p id="t">Text</p></div>');
      // The other person added a heading inside the card: the copies differ in shape.
      const current = page('<div id="card"><h3>Kicker</h3><h2>Card</h2><p id="t">Text</p></div>');
      const operations = logOf(before, [
        { kind: 'duplicate', target: '#card' },
        { kind: 'swap', target: '#t-2', html: 'Copied text' },
        (d) => ({ kind: 'swap', target: `@${d.outline()[4]!.node}`, html: 'Copied card' }),
      ]);
      const plan = planReapply(before, operations, current);
      expect(plan.skipped).toEqual([]);
      expect(result(current, plan)).toBe(
        page(
          '<div id="card"><h3>Kicker</h3><h2>Card</h2><p id="t">Text</p></div>' +
            '<div id="card-2"><h3>Kicker</h3><h2>Copied card</h2><p id="t-2">Copied text</p></div>',
        ),
      );
    });
  });

  describe('skips', () => {
    it('an element the other person removed: that operation only, with a reason', () => {
      const current = saved((d) => ({ kind: 'remove', target: find('p', 'Party on Friday')(d) }));
      const mine: Step[] = [
        (d) => ({
          kind: 'swap',
          target: find('p', 'Party on Friday')(d),
          html: 'Party on Saturday',
        }),
        (d) => ({ kind: 'remove', target: find('p', 'Second news')(d) }),
      ];
      const operations = logOf(base, mine);
      const plan = planReapply(base, operations, current);
      expect(plan.skipped).toEqual([
        {
          index: 0,
          operation: operations[0],
          reason:
            'the paragraph “Party on Friday” whose content it replaced was changed or removed by someone else meanwhile',
        },
      ]);
      expect(result(current, plan)).toBe(byHand(current, mine.slice(1)));
    });

    it('an element gone with its place: “no longer on the page”', () => {
      const current = saved((d) => ({ kind: 'remove', target: find('li', 'Two')(d) }));
      const operations = logOf(base, [(d) => ({ kind: 'remove', target: find('li', 'Two')(d) })]);
      const plan = planReapply(base, operations, current);
      expect(plan.operations).toEqual([]);
      expect(plan.skipped[0]!.reason).toBe(
        'the list item “Two” it removed is no longer on the page',
      );
    });

    it('an element whose text the other person changed is not taken for the same one', () => {
      const current = saved((d) => ({
        kind: 'swap',
        target: find('p', 'First news')(d),
        html: 'First news, corrected',
      }));
      const operations = logOf(base, [
        (d) => ({ kind: 'remove', target: find('p', 'First news')(d) }),
      ]);
      const plan = planReapply(base, operations, current);
      expect(plan.operations).toEqual([]);
      expect(plan.skipped[0]!.reason).toMatch(/^the paragraph “First news” it removed was changed/);
    });

    it('never lands on another element when a sibling of the same tag came before it', () => {
      const current = saved((d) => ({
        kind: 'insert',
        parent: news(d),
        html: '<p>Breaking</p>',
        before: find('p', 'First news')(d),
      }));
      const operations = logOf(base, [
        (d) => ({ kind: 'remove', target: find('p', 'First news')(d) }),
      ]);
      const plan = planReapply(base, operations, current);
      expect(plan.operations).toEqual([]);
      expect(result(current, plan)).toBe(current);
    });

    it('operations on what a skipped operation created are skipped too', () => {
      const current = saved((d) => ({ kind: 'remove', target: find('ul', 'OneTwo')(d) }));
      const mine: Step[] = [
        (d) => ({ kind: 'insert', parent: find('ul', 'OneTwo')(d), html: '<li>Three</li>' }),
        (d) => ({ kind: 'swap', target: find('li', 'Three')(d), html: 'Three!' }),
        (d) => ({ kind: 'duplicate', target: find('li', 'Three!')(d) }),
        (d) => ({ kind: 'remove', target: find('p', 'First news')(d) }),
      ];
      const operations = logOf(base, mine);
      const plan = planReapply(base, operations, current);
      expect(plan.skipped.map((s) => [s.index, s.reason])).toEqual([
        [0, 'the list “OneTwo” it added content to is no longer on the page'],
        [
          1,
          'the list item “Three” whose content it replaced was added by change 1, which was skipped',
        ],
        [2, 'the list item “Three!” it duplicated was added by change 1, which was skipped'],
      ]);
      expect(result(current, plan)).toBe(byHand(current, mine.slice(3)));
    });

    it('an operation the newer page refuses, in a person’s words', () => {
      const before = page('<div id="box"><p id="in">In</p></div><p id="out">Out</p>');
      // The other person moved #out into #box: "before #in, inside body" no longer holds.
      const current = page('<div id="box"><p id="out">Out</p><p id="in">In</p></div>');
      const operations: Operation[] = [
        { kind: 'move', target: '#in', parent: '@0', before: '#out' },
        { kind: 'insert', parent: '#box', html: '<p>New</p>' },
      ];
      const plan = planReapply(before, operations, current);
      expect(plan.skipped).toEqual([
        {
          index: 0,
          operation: operations[0],
          reason:
            'on the newer page, the element it was placed before is no longer inside the element it went into',
        },
      ]);
      expect(plan.operations).toEqual([{ kind: 'insert', parent: '#box', html: '<p>New</p>' }]);
    });

    it('a move into what the other person put inside the moved element', () => {
      const before = page('<div id="a">A</div><div id="b">B</div>');
      const current = page('<div id="a">A<div id="b">B</div></div>');
      const plan = planReapply(before, [{ kind: 'move', target: '#a', parent: '#b' }], current);
      expect(plan.skipped[0]!.reason).toBe(
        'on the newer page, the element it moved holds the place it was moved to',
      );
    });

    it('a revision that cannot be opened skips everything', () => {
      const frameset = '<html><frameset><frame src="a.html"></frameset></html>';
      const operations: Operation[] = [{ kind: 'remove', target: '@1' }];
      expect(planReapply(base, operations, frameset).skipped).toEqual([
        {
          index: 0,
          operation: operations[0],
          reason: 'the newer revision of the page cannot be opened',
        },
      ]);
      expect(planReapply(frameset, operations, base).skipped[0]!.reason).toBe(
        'the revision it was started on cannot be opened',
      );
    });

    it('a log that does not replay on its base is reported, and the rest goes on', () => {
      const operations: Operation[] = [
        { kind: 'remove', target: '@999' },
        { kind: 'remove', target: '@1' },
      ];
      const plan = planReapply(base, operations, base);
      expect(plan.skipped[0]!.reason).toMatch(
        /^it does not apply to the revision it was started on/,
      );
      expect(plan.operations).toEqual([{ kind: 'remove', target: '@1' }]);
    });
  });

  it('takes the operations in effect: what was undone is not in the input', () => {
    const steps: Step[] = [
      (d) => ({ kind: 'remove', target: find('p', 'First news')(d) }),
      (d) => ({ kind: 'remove', target: find('p', 'Bring food')(d) }),
      'undo',
      (d) => ({ kind: 'insert', parent: news(d), html: '<p>Later</p>' }),
    ];
    const operations = logOf(base, steps);
    expect(operations).toHaveLength(2);
    const current = saved((d) => ({
      kind: 'swap',
      target: find('p', 'Contact us')(d),
      html: 'Hi',
    }));
    const plan = planReapply(base, operations, current);
    expect(plan.skipped).toEqual([]);
    expect(result(current, plan)).toBe(byHand(current, steps));
  });
});
