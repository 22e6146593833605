import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftOf, draftOfPage } from './support/drafts.js';
import { ReferenceDraft } from './support/reference-model.js';

const numRuns = process.env['CI'] ? 1000 : 150;

/** Long, messy text: white space runs, references split anywhere a chunk could end, astral characters. */
const text = fc
  .array(
    fc.constantFrom(
      'x',
      'word ',
      ' ',
      '   ',
      '\n\t',
      '&amp;',
      '&eacute;',
      '&copy',
      '😀',
      '&#x1F600;',
      'é',
      '\r\n',
    ),
    {
      maxLength: 120,
    },
  )
  .map((parts) => parts.join(''));
const { node } = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.constant('<!-- skipped -->'),
    fc
      .tuple(fc.constantFrom('div', 'span', 'b', 'script'), fc.array(tie('node'), { maxLength: 4 }))
      .map(([tag, children]) =>
        tag === 'script'
          ? `<script>${children.length} &amp; a  b</script>`
          : `<${tag}>${children.join('')}</${tag}>`,
      ),
  ),
}));

describe('outline', () => {
  it('lists the elements inside <body> in pre-order from 1; <head> and <body> are not in it', () => {
    const draft = draftOfPage(
      '<html><head><title id="t">T</title></head><body class="b"><div id="a" class="x  y\tz"><p>One</p><p>Two</p></div><ul><li>i</li></ul></body></html>',
    );
    expect(draft.outline()).toEqual([
      { node: 1, tag: 'div', id: 'a', classes: ['x', 'y', 'z'], text: 'OneTwo' },
      { node: 2, tag: 'p', id: null, classes: [], text: 'One' },
      { node: 3, tag: 'p', id: null, classes: [], text: 'Two' },
      { node: 4, tag: 'ul', id: null, classes: [], text: 'i' },
      { node: 5, tag: 'li', id: null, classes: [], text: 'i' },
    ]);
  });

  it('lower-cases tags, reads ids and classes as a browser does, and an empty id is no id', () => {
    const draft = draftOf('<DIV ID="caf&eacute;" CLASS="a&amp;b c">x</DIV><p id="">y</p>');
    expect(draft.outline().map(({ tag, id, classes }) => ({ tag, id, classes }))).toEqual([
      { tag: 'div', id: 'café', classes: ['a&b', 'c'] },
      { tag: 'p', id: null, classes: [] },
    ]);
  });

  it('text: entities decoded, ASCII white space collapsed and trimmed, comments left out', () => {
    const draft = draftOf(
      '<p>\n  Fish &amp;\r\n\t<b>chips</b><!-- no -->&nbsp;now  </p><script>if (a &amp;&amp; b)</script>',
    );
    expect(draft.outline().map((entry) => entry.text)).toEqual([
      'Fish & chips\u00a0now',
      'chips',
      'if (a &amp;&amp; b)',
    ]);
  });

  it('text is cut at 80 characters with no ellipsis, never inside a surrogate pair', () => {
    const long = `${'word '.repeat(30)}end`;
    const emoji = '😀'.repeat(100);
    const draft = draftOf(`<p>${long}</p><p>${emoji}</p><p>${'a'.repeat(79)}&copy;&copy;</p>`);
    const [first, second, third] = draft.outline().map((entry) => entry.text);
    expect(first).toBe('word '.repeat(16).slice(0, 80));
    expect(Array.from(second ?? '')).toHaveLength(80);
    expect(second).toBe('😀'.repeat(80));
    expect(third).toBe(`${'a'.repeat(79)}©`);
  });

  it('reads through long text in chunks without splitting an entity or a white space run', () => {
    const text = `${'x'.repeat(250)}${' '.repeat(20)}&amp;${'y'.repeat(300)}`;
    const draft = draftOf(`<div><p>${' \n'.repeat(200)}</p><p>${text}</p></div>`);
    expect(draft.outline()[0]?.text).toBe('x'.repeat(80));
    const spaced = draftOf(`<p>${' '.repeat(300)}a${' '.repeat(300)}&eacute;</p>`);
    expect(spaced.outline()[0]?.text).toBe('a é');
  });

  it('reads text as a naive textContent would, for any mix of text, references and markup', () => {
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 4 }), (nodes) => {
        const draft = draftOf(nodes.join(''));
        expect(draft.outline()).toEqual(new ReferenceDraft(draft.html()).outline());
      }),
      { numRuns },
    );
  });

  it('is built once per version and rebuilt after a change, ancestors reading the new text', () => {
    const draft = draftOf('<section><div><p id="p">old</p></div></section>');
    const first = draft.outline();
    expect(draft.outline()).toBe(first);
    draft.apply({ kind: 'swap', target: '#p', html: 'new' });
    const second = draft.outline();
    expect(second).not.toBe(first);
    expect(second.map((entry) => entry.text)).toEqual(['new', 'new', 'new']);
    expect(first.map((entry) => entry.text)).toEqual(['old', 'old', 'old']);
    draft.undo();
    expect(draft.outline().map((entry) => entry.text)).toEqual(['old', 'old', 'old']);
  });

  it('gives each entry its depth below <body>, template contents and raw text included', () => {
    const draft = draftOf(
      '<header><h1 style="color: red" onclick="x()">T</h1></header><main><section><p>a<b>b</b></p></section><template><i>t</i></template><style>p{}</style></main><footer></footer>',
    );
    expect(draft.outline().map((entry) => entry.tag)).toEqual([
      'header',
      'h1',
      'main',
      'section',
      'p',
      'b',
      'template',
      'i',
      'style',
      'footer',
    ]);
    expect(draft.outlineDepths()).toEqual([0, 1, 0, 1, 2, 3, 1, 2, 1, 0]);
  });

  it('keeps the depths in step with every change, undo and redo', () => {
    const draft = draftOf('<div id="a"><p id="p">x</p></div><div id="b"></div>');
    const first = draft.outlineDepths();
    expect(draft.outlineDepths()).toBe(first);
    expect(first).toEqual([0, 1, 0]);
    draft.apply({ kind: 'move', target: '#a', parent: '#b' });
    expect(draft.outlineDepths()).toEqual([0, 1, 2]);
    draft.apply({ kind: 'insert', parent: '#p', html: '<b><i>y</i></b>' });
    expect(draft.outlineDepths()).toEqual([0, 1, 2, 3, 4]);
    draft.undo();
    draft.undo();
    expect(draft.outlineDepths()).toEqual(first);
    draft.redo();
    expect(draft.outlineDepths()).toEqual([0, 1, 2]);
  });

  it('has one depth per entry, the number of elements between it and <body>', () => {
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 4 }), (nodes) => {
        const draft = draftOf(nodes.join(''));
        const model = new ReferenceDraft(draft.html());
        const body = model.body();
        const depths = model.elements().map((element) => {
          let depth = 0;
          for (let up = element.parent; up && up !== body; up = up.parent) depth++;
          return depth;
        });
        expect(draft.outlineDepths()).toEqual(depths);
        expect(draft.outlineDepths()).toHaveLength(draft.outline().length);
      }),
      { numRuns },
    );
  });
});
