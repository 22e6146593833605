import { describe, expect, it } from 'vitest';
import { Draft as DraftClass } from '@galley/core';
import { accepted, bodyOf, draftOf, draftOfPage } from './support/drafts.js';

// Outline of this body: @1 main, @2 h1#t, @3 p#a, @4 p#b, @5 em, @6 footer#f.
const page =
  '<main id="m"><h1 id="t">Title</h1><p id="a">A</p><p id="b">B <em>b</em></p></main><footer id="f">F</footer>';

describe('insert', () => {
  it('parses html as a fragment and appends its nodes to the parent (#id)', () => {
    const draft = draftOf(page);
    const result = accepted(draft.apply({ kind: 'insert', parent: '#m', html: '<p id="c">C</p>' }));
    expect(bodyOf(draft)).toBe(
      '<main id="m"><h1 id="t">Title</h1><p id="a">A</p><p id="b">B <em>b</em></p><p id="c">C</p></main><footer id="f">F</footer>',
    );
    expect(result).toEqual({ nodes: ['@6'], ids: ['c'] });
  });

  it('inserts before a child (@n), numbering every created element in the new outline', () => {
    const draft = draftOf(page);
    const result = accepted(
      draft.apply({
        kind: 'insert',
        parent: '@1',
        before: '@3',
        html: '<hr><p>x <i id="i">y</i></p>',
      }),
    );
    expect(bodyOf(draft)).toContain(
      '<h1 id="t">Title</h1><hr><p>x <i id="i">y</i></p><p id="a">A</p>',
    );
    expect(result).toEqual({ nodes: ['@3', '@4'], ids: ['i'] });
    expect(draft.outline().map((entry) => entry.tag)).toEqual([
      'main',
      'h1',
      'hr',
      'p',
      'i',
      'p',
      'p',
      'em',
      'footer',
    ]);
  });

  it('inserts into <body> itself (@0), text and comments included', () => {
    const draft = draftOf(page);
    const result = accepted(draft.apply({ kind: 'insert', parent: '@0', html: 'tail <!-- c -->' }));
    expect(bodyOf(draft).endsWith('<footer id="f">F</footer>tail <!-- c -->')).toBe(true);
    expect(result).toEqual({ nodes: [], ids: [] });
  });

  it('reads a fragment for <svg> as SVG (self-closing elements) and for <script> as text', () => {
    const draft = draftOf('<svg id="s"></svg><script id="j"></script>');
    accepted(
      draft.apply({ kind: 'insert', parent: '#s', html: '<circle r="1"/><g><path d="M0"/></g>' }),
    );
    accepted(draft.apply({ kind: 'insert', parent: '#j', html: 'if (a < b) run("<p>");' }));
    expect(bodyOf(draft)).toBe(
      '<svg id="s"><circle r="1"/><g><path d="M0"/></g></svg><script id="j">if (a < b) run("<p>");</script>',
    );
  });
});

describe('move', () => {
  it('moves the target to the end of the parent', () => {
    const draft = draftOf(page);
    const result = accepted(draft.apply({ kind: 'move', target: '#b', parent: '#f' }));
    expect(bodyOf(draft)).toBe(
      '<main id="m"><h1 id="t">Title</h1><p id="a">A</p></main><footer id="f">F<p id="b">B <em>b</em></p></footer>',
    );
    expect(result).toEqual({ nodes: ['@5'], ids: ['b'] });
  });

  it('moves before a child, with references in either form', () => {
    const draft = draftOf(page);
    const result = accepted(
      draft.apply({ kind: 'move', target: '@6', parent: '@0', before: '#m' }),
    );
    expect(bodyOf(draft).startsWith('<footer id="f">F</footer><main id="m">')).toBe(true);
    expect(result).toEqual({ nodes: ['@1'], ids: ['f'] });
  });

  it('moving an element before itself leaves it where it is', () => {
    const draft = draftOf(page);
    const result = accepted(
      draft.apply({ kind: 'move', target: '#a', parent: '#m', before: '#a' }),
    );
    expect(bodyOf(draft)).toBe(page);
    expect(result).toEqual({ nodes: ['@3'], ids: ['a'] });
  });
});

describe('remove', () => {
  it('removes the element and its content; nodes is empty', () => {
    const draft = draftOf(page);
    expect(accepted(draft.apply({ kind: 'remove', target: '#b' }))).toEqual({ nodes: [], ids: [] });
    expect(bodyOf(draft)).toBe(
      '<main id="m"><h1 id="t">Title</h1><p id="a">A</p></main><footer id="f">F</footer>',
    );
    expect(draft.outline()).toHaveLength(4);
  });
});

describe('duplicate', () => {
  it('puts a deep copy right after the target; ids inside get the first free suffix', () => {
    const draft = draftOf(
      '<div id="x"><p id="y">1</p><p id="y-2">2</p></div><i id="x-2">taken</i>',
    );
    const result = accepted(draft.apply({ kind: 'duplicate', target: '#x' }));
    expect(bodyOf(draft)).toBe(
      '<div id="x"><p id="y">1</p><p id="y-2">2</p></div>' +
        '<div id="x-3"><p id="y-3">1</p><p id="y-2-2">2</p></div><i id="x-2">taken</i>',
    );
    expect(result).toEqual({ nodes: ['@4'], ids: ['x-3', 'y-3', 'y-2-2'] });
  });

  it('a second duplicate takes the next free suffix', () => {
    const draft = draftOf('<p id="a">A</p>');
    accepted(draft.apply({ kind: 'duplicate', target: '#a' }));
    expect(accepted(draft.apply({ kind: 'duplicate', target: '#a' })).ids).toEqual(['a-3']);
    expect(bodyOf(draft)).toBe('<p id="a">A</p><p id="a-3">A</p><p id="a-2">A</p>');
  });

  it('takes a suffix again once its element was removed, and finds no element by a removed id', () => {
    const draft = draftOf('<p id="a">A</p>');
    for (let round = 0; round < 3; round++) {
      expect(accepted(draft.apply({ kind: 'duplicate', target: '#a' })).ids).toEqual(['a-2']);
      accepted(draft.apply({ kind: 'remove', target: '#a-2' }));
      expect(draft.apply({ kind: 'remove', target: '#a-2' }).ok).toBe(false);
    }
    expect(bodyOf(draft)).toBe('<p id="a">A</p>');
  });

  it('counts ids in <head> as taken', () => {
    const draft = draftOfPage(
      '<html><head><style id="a-2"></style></head><body><p id="a">A</p></body></html>',
    );
    expect(accepted(draft.apply({ kind: 'duplicate', target: '#a' })).ids).toEqual(['a-3']);
  });
});

describe('replace', () => {
  it('replaces the element and its content with the fragment', () => {
    const draft = draftOf(page);
    const result = accepted(
      draft.apply({ kind: 'replace', target: '#a', html: '<h2 id="h">H</h2><p>P</p>' }),
    );
    expect(bodyOf(draft)).toContain('<h1 id="t">Title</h1><h2 id="h">H</h2><p>P</p><p id="b">');
    expect(result).toEqual({ nodes: ['@3', '@4'], ids: ['h'] });
  });

  it('may replace an element by text alone', () => {
    const draft = draftOf(page);
    expect(accepted(draft.apply({ kind: 'replace', target: '@5', html: 'plain' }))).toEqual({
      nodes: [],
      ids: [],
    });
    expect(bodyOf(draft)).toContain('<p id="b">B plain</p>');
  });
});

describe('swap', () => {
  it('replaces the content; the element, its tag, id and attributes stay; nodes is the target', () => {
    const draft = draftOf('<p id="a" class="k" data-x="1">old <b>x</b></p>');
    const result = accepted(
      draft.apply({ kind: 'swap', target: '#a', html: 'new <i id="n">y</i>' }),
    );
    expect(bodyOf(draft)).toBe('<p id="a" class="k" data-x="1">new <i id="n">y</i></p>');
    expect(result).toEqual({ nodes: ['@1'], ids: ['a', 'n'] });
  });

  it('an empty fragment empties the element', () => {
    const draft = draftOf('<p id="a">old <b>x</b></p>');
    accepted(draft.apply({ kind: 'swap', target: '#a', html: '' }));
    expect(bodyOf(draft)).toBe('<p id="a"></p>');
  });

  it('replaces the content of <body> (@0); the body and its attributes stay; undo and redo', () => {
    const html = `<!DOCTYPE html><html><head><title>t</title></head><body class="home" data-x="1">\n${page}\n<!-- end -->\n</body></html>`;
    const draft = draftOfPage(html);
    const before = draft.outline();
    const result = accepted(
      draft.apply({ kind: 'swap', target: '@0', html: '<p id="only">only</p>' }),
    );
    expect(result).toEqual({ nodes: ['@0'], ids: ['only'] });
    expect(draft.html()).toBe(
      '<!DOCTYPE html><html><head><title>t</title></head><body class="home" data-x="1"><p id="only">only</p></body></html>',
    );
    expect(draft.outline()).toEqual([{ node: 1, tag: 'p', id: 'only', classes: [], text: 'only' }]);

    // Undo restores the old content exactly, text and comment nodes included.
    expect(accepted(draft.undo())).toEqual({ nodes: ['@0'], ids: ['m', 't', 'a', 'b', 'f'] });
    expect(draft.html()).toBe(html);
    expect(draft.outline()).toEqual(before);
    expect([draft.canUndo, draft.canRedo]).toEqual([false, true]);

    expect(accepted(draft.redo())).toEqual({ nodes: ['@0'], ids: ['only'] });
    expect(draft.html()).toContain('<body class="home" data-x="1"><p id="only">only</p></body>');
    expect(draft.outline()).toHaveLength(1);
    accepted(draft.undo());
    expect(draft.html()).toBe(html);
  });

  it('empties <body> with an empty fragment, and rebuilds from its log', () => {
    const draft = draftOf(page);
    accepted(draft.apply({ kind: 'swap', target: '@0', html: '' }));
    expect(bodyOf(draft)).toBe('');
    expect(draft.outline()).toEqual([]);
    accepted(draft.apply({ kind: 'insert', parent: '@0', html: '<h2 id="n">new</h2>' }));
    const base = `<!DOCTYPE html><html><head><title>t</title></head><body>${page}</body></html>`;
    const rebuilt = DraftClass.rebuild(base, draft.log());
    if (!rebuilt.ok) return expect.fail(JSON.stringify(rebuilt.errors));
    expect(rebuilt.draft.html()).toBe(draft.html());
    accepted(draft.undo());
    accepted(draft.undo());
    expect(bodyOf(draft)).toBe(page);
  });
});

describe('references', () => {
  it('#id picks the first element with that id in document order, also after a move', () => {
    const draft = draftOf('<p id="x">first</p><div><p id="x">second</p></div>');
    expect(accepted(draft.apply({ kind: 'swap', target: '#x', html: '1' })).nodes).toEqual(['@1']);
    accepted(draft.apply({ kind: 'move', target: '@3', parent: '@0', before: '@1' }));
    expect(accepted(draft.apply({ kind: 'swap', target: '#x', html: '2' })).nodes).toEqual(['@1']);
    expect(bodyOf(draft)).toBe('<p id="x">2</p><p id="x">1</p><div></div>');
  });

  it('#id finds ids written with entities, as a browser reads them', () => {
    const draft = draftOf('<p id="caf&eacute;">x</p>');
    expect(accepted(draft.apply({ kind: 'remove', target: '#café' }))).toEqual({
      nodes: [],
      ids: [],
    });
  });

  it('@n follows the outline as operations change it', () => {
    const draft = draftOf(page);
    accepted(draft.apply({ kind: 'insert', parent: '@0', before: '@1', html: '<nav>N</nav>' }));
    expect(draft.outline()[1]).toMatchObject({ node: 2, tag: 'main', id: 'm' });
    accepted(draft.apply({ kind: 'remove', target: '@2' }));
    expect(draft.outline().map((entry) => `${entry.node}:${entry.tag}`)).toEqual([
      '1:nav',
      '2:footer',
    ]);
  });
});

describe('undo and redo', () => {
  it('answer like an operation, count in sequence, and a new operation drops the redo stack', () => {
    const draft = draftOf(page);
    expect([draft.sequence, draft.canUndo, draft.canRedo]).toEqual([0, false, false]);
    accepted(draft.apply({ kind: 'remove', target: '#a' }));
    expect(accepted(draft.undo())).toEqual({ nodes: ['@3'], ids: ['a'] });
    expect(bodyOf(draft)).toBe(page);
    expect([draft.sequence, draft.canUndo, draft.canRedo]).toEqual([2, false, true]);
    expect(accepted(draft.redo())).toEqual({ nodes: [], ids: [] });
    accepted(draft.undo());
    accepted(draft.apply({ kind: 'duplicate', target: '#t' }));
    expect([draft.sequence, draft.canUndo, draft.canRedo]).toEqual([5, true, false]);
  });

  it('undo of a move puts the element back and names it', () => {
    const draft = draftOf(page);
    accepted(draft.apply({ kind: 'move', target: '#t', parent: '#f' }));
    expect(accepted(draft.undo())).toEqual({ nodes: ['@2'], ids: ['t'] });
    expect(bodyOf(draft)).toBe(page);
  });
});
