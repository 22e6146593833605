import { Element, Text } from 'domhandler';
import { describe, expect, it } from 'vitest';
import type { Draft, DraftLog, Operation } from '@galley/core';
import { Draft as DraftClass } from '@galley/core';
import { heightOf } from '../../src/draft/dom.js';
import { accepted, draftOf, refusedWith } from './support/drafts.js';

// Depths count elements from <html> (1): <body> is at 2, its children at 3, and no element of a
// draft may lie deeper than 512 (the limit of the `pages` check, and of Draft.open).

/** `levels` nested <div>s, the outermost with `id`. */
function chain(levels: number, id?: string): string {
  const open = id === undefined ? '<div>' : `<div id="${id}">`;
  return open + '<div>'.repeat(levels - 1) + '</div>'.repeat(levels);
}

/** Everything a later request reads: it must not throw, and must not change on a refusal. */
function rendered(draft: Draft): { html: string; outline: number; log: DraftLog } {
  return { html: draft.html(), outline: draft.outline().length, log: draft.log() };
}

const tooDeepMove = [
  {
    code: 'too_deep',
    message:
      'Moved there, the element would nest elements deeper than the page allows (512 levels).',
    field: 'operation.parent',
  },
];

const tooDeepFragment = [
  {
    code: 'malformed_html',
    message: 'The fragment nests elements deeper than the page allows (512 levels).',
    field: 'operation.html',
  },
];

describe('a copy moved into its own original, again and again', () => {
  // #c is `levels` deep: @1 … @levels. Its copy is @levels+1; moving it into @levels doubles #c.
  it.each([
    [100, 3], // 200, 400, then 800 levels: refused
    [255, 2], // 510 levels (the deepest <div> at 512 exactly), then 1020: refused
    [500, 1], // the ~500-deep chain of the report: the first move is refused
  ])('a %i-level chain: the move of step %i is refused', (start, refusedStep) => {
    const draft = draftOf(chain(start, 'c'));
    const base = draft.html();
    let levels = start;
    for (let step = 1; step <= refusedStep; step++) {
      accepted(draft.apply({ kind: 'duplicate', target: '#c' }));
      const before = rendered(draft);
      const sequence = draft.sequence;
      const move: Operation = { kind: 'move', target: `@${levels + 1}`, parent: `@${levels}` };
      const answer = draft.apply(move);
      if (step < refusedStep) {
        expect(accepted(answer).nodes).toEqual([`@${levels + 1}`]);
        levels *= 2;
        continue;
      }
      expect(answer.ok ? [] : answer.errors).toEqual(tooDeepMove);
      expect(rendered(draft), 'a refused move changes nothing').toEqual(before);
      expect(draft.sequence).toBe(sequence);
      expect(draft.log().operations.at(-1)).toEqual({ kind: 'duplicate', target: '#c' });
    }
    expect(2 + levels).toBeLessThanOrEqual(512);
    expect(draft.outline()).toHaveLength(2 * levels);

    // The draft goes on: the next operation is accepted, the log rebuilds, undo and redo hold.
    accepted(draft.apply({ kind: 'remove', target: '#c-2' }));
    const latest = draft.html();
    const rebuilt = DraftClass.rebuild(base, draft.log());
    if (!rebuilt.ok) throw new Error(JSON.stringify(rebuilt.errors));
    expect([rebuilt.draft.html(), rebuilt.draft.outline()]).toEqual([latest, draft.outline()]);
    while (draft.canUndo) accepted(draft.undo());
    expect(draft.html()).toBe(base);
    while (draft.canRedo) accepted(draft.redo());
    expect(draft.html()).toBe(latest);
  });

  it('a log that carries such a move does not rebuild (it cannot come from a draft)', () => {
    const base = draftOf(chain(300, 'c')).html();
    const rebuilt = DraftClass.rebuild(base, {
      format: 1,
      operations: [
        { kind: 'duplicate', target: '#c' },
        { kind: 'move', target: '@301', parent: '@300' },
      ],
      applied: 2,
      sequence: 2,
    });
    expect(rebuilt.ok ? [] : rebuilt.errors.map((e) => [e.code, e.field])).toEqual([
      ['invalid_log', 'log.operations.1'],
    ]);
  });
});

describe('a move lands no deeper than 512 levels', () => {
  // #a (@1 … @a) and #b side by side; #b moved into the deepest <div> of #a.
  it.each([
    [255, 255, true], // the deepest <div> of #b at 2 + 255 + 255 = 512
    [255, 256, false],
    [256, 255, false],
    [510, 1, false], // a single element moved below one at depth 512
    [509, 1, true],
  ])('#a %i deep, #b %i deep, into the deepest of #a: accepted %s', (a, b, ok) => {
    const draft = draftOf(chain(a, 'a') + chain(b, 'b'));
    const before = rendered(draft);
    const answer = draft.apply({ kind: 'move', target: '#b', parent: `@${a}` });
    if (ok) {
      expect(accepted(answer).nodes).toEqual([`@${a + 1}`]);
      expect(draft.html()).toContain('<div id="b">');
      expect(draft.outline()).toHaveLength(a + b);
      accepted(draft.undo());
      expect(draft.html()).toBe(before.html);
    } else {
      expect(answer.ok ? [] : answer.errors).toEqual(tooDeepMove);
      expect(rendered(draft)).toEqual(before);
    }
  });

  it('other refusals of a move come first; the depth is judged only for a possible move', () => {
    const draft = draftOf(chain(400, 'a'));
    expect(refusedWith(draft.apply({ kind: 'move', target: '#a', parent: '@400' }))).toEqual([
      { code: 'move_into_self', field: 'operation.parent' },
    ]);
    expect(refusedWith(draft.apply({ kind: 'move', target: '@300', parent: '@400' }))).toEqual([
      { code: 'move_into_self', field: 'operation.parent' },
    ]);
  });

  it('moving the deepest element before itself, or higher up, is accepted', () => {
    const draft = draftOf(chain(510, 'a') + '<p id="p"></p>');
    accepted(draft.apply({ kind: 'move', target: '@510', parent: '@509', before: '@510' }));
    accepted(draft.apply({ kind: 'move', target: '#a', parent: '@0', before: '#a' }));
    accepted(draft.apply({ kind: 'move', target: '@510', parent: '#p' }));
    expect(draft.outline().map((entry) => entry.node)).toHaveLength(511);
  });

  it('a page opened without a <body> tag, one level deeper once it has one, can be reordered', () => {
    // Read with <i> at level 512, then given its <body>: <i> (@511) lies at 513.
    const opened = DraftClass.open('<html><head></head>' + '<b>'.repeat(510) + '<i></i>');
    if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
    const draft = opened.draft;
    accepted(draft.apply({ kind: 'move', target: '@1', parent: '@0', before: '@1' }));
    accepted(draft.apply({ kind: 'move', target: '@511', parent: '@0' })); // <i>, still @511
    // Back below the deepest <b> (at 512): refused; below the one above it: accepted.
    expect(refusedWith(draft.apply({ kind: 'move', target: '@511', parent: '@510' }))).toEqual([
      { code: 'too_deep', field: 'operation.parent' },
    ]);
    accepted(draft.apply({ kind: 'move', target: '@511', parent: '@509' }));
  });
});

describe('a fragment is judged together with the place it lands', () => {
  // #d (@298) at depth 300: 212 levels fit below it, 213 below its parent (where replace puts them).
  const page = '<div>'.repeat(297) + '<div id="d"></div>' + '</div>'.repeat(297);
  const deep = (): Draft => {
    const draft = draftOf(page);
    expect(draft.outline()[297]).toMatchObject({ node: 298, id: 'd' });
    return draft;
  };
  it.each<[string, (levels: number) => Operation, number]>([
    ['insert into it', (n) => ({ kind: 'insert', parent: '#d', html: chain(n) }), 212],
    ['swap its content', (n) => ({ kind: 'swap', target: '#d', html: chain(n) }), 212],
    ['replace it', (n) => ({ kind: 'replace', target: '#d', html: chain(n) }), 213],
  ])('%s: one level too many is refused, as is a 300-deep fragment', (_, operation, fits) => {
    for (const [levels, ok] of [
      [fits, true],
      [fits + 1, false],
      [300, false], // 300 levels into an element at depth 300
    ] as const) {
      const draft = deep();
      const before = rendered(draft);
      const answer = draft.apply(operation(levels));
      if (ok) {
        accepted(answer);
        expect(draft.html().length).toBeGreaterThan(before.html.length);
        expect(draft.outline().length).toBeGreaterThan(before.outline);
      } else {
        expect(answer.ok ? [] : answer.errors).toEqual(tooDeepFragment);
        expect(rendered(draft)).toEqual(before);
      }
    }
  });
});

describe('a duplicate lands at the depth of its original', () => {
  it('is accepted with the deepest element at 512, and the page still renders', () => {
    const draft = draftOf(chain(510, 'a'));
    accepted(draft.apply({ kind: 'duplicate', target: '#a' }));
    accepted(draft.apply({ kind: 'duplicate', target: '@510' })); // the <div> at depth 512
    expect(draft.outline()).toHaveLength(1021);
    expect(draft.html()).toContain('<div id="a-2">');
    // …and no operation makes it deeper.
    expect(refusedWith(draft.apply({ kind: 'move', target: '#a-2', parent: '@1' }))).toEqual([
      { code: 'too_deep', field: 'operation.parent' },
    ]);
    expect(refusedWith(draft.apply({ kind: 'insert', parent: '@511', html: '<b></b>' }))).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
  });
});

describe('heightOf', () => {
  /** A hand-built chain of `levels` elements, each also holding a text node and a leaf. */
  function handBuilt(levels: number): Element {
    const root = new Element('div', {});
    let node = root;
    for (let i = 1; i < levels; i++) {
      const text = new Text('t');
      const leaf = new Element('i', {});
      const child = new Element('div', {});
      node.children = [text, child, leaf];
      [text.parent, child.parent, leaf.parent] = [node, node, node];
      [text.next, child.prev, child.next, leaf.prev] = [child, text, leaf, child];
      node = child;
    }
    return root;
  }

  it('measures a tree far deeper than any page without recursing', () => {
    const root = handBuilt(100_000);
    expect(heightOf(root)).toBe(100_000);
    expect(heightOf(root, 511)).toBe(512);
  });

  it('counts the root, stops past the limit, and never leaves the root', () => {
    const leaf = new Element('p', {});
    expect([heightOf(leaf), heightOf(leaf, 0), heightOf(leaf, -3)]).toEqual([1, 1, 1]);
    const tree = handBuilt(5);
    const sibling = handBuilt(50);
    [tree.next, sibling.prev] = [sibling, tree];
    expect([heightOf(tree), heightOf(tree, 2)]).toEqual([5, 3]);
  });
});
