import { describe, expect, it } from 'vitest';
import { Draft } from '@galley/core';
import { browserDom } from './support/browser-dom.js';
import { accepted } from './support/drafts.js';

function open(html: string): Draft {
  const opened = Draft.open(html);
  if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
  return opened.draft;
}

describe('a page written without a <body> tag', () => {
  const pages = [
    '<!DOCTYPE html><title>x</title><p id="a">one</p><p>two</p>',
    '<!DOCTYPE html>\n<html lang="en">\n<meta charset="utf-8">\n<title>x</title>\n<!-- note -->\nHello <b id="b">there</b>\n</html>\n',
    '<!DOCTYPE html><html><head><title>x</title></head><p id="a">after an explicit head</p></html>',
    '<!DOCTYPE html><title>only a head</title>',
  ];

  it.each(pages)('opens with the body a browser builds: %j', (html) => {
    const draft = open(html);
    expect(browserDom(draft.html())).toBe(browserDom(html));
    expect(draft.outline().map((entry) => entry.node)).toEqual(
      draft.outline().map((_, i) => i + 1),
    );
  });

  it('is edited like any page: @0 is the implied body, ids resolve, undo restores', () => {
    const draft = open(pages[0]!);
    expect(draft.outline().map((e) => [e.node, e.tag, e.id])).toEqual([
      [1, 'p', 'a'],
      [2, 'p', null],
    ]);
    const before = draft.html();
    accepted(draft.apply({ kind: 'insert', parent: '@0', html: '<p id="c">three</p>' }));
    accepted(draft.apply({ kind: 'swap', target: '#a', html: 'changed' }));
    expect(draft.outline().map((e) => e.text)).toEqual(['changed', 'two', 'three']);
    draft.undo();
    draft.undo();
    expect(draft.html()).toBe(before);
    const rebuilt = Draft.rebuild(pages[0]!, draft.log());
    expect(rebuilt.ok && rebuilt.draft.html()).toBe(before);
  });

  it('swaps the content of the implied body (@0), and undo restores it', () => {
    const draft = open(pages[1]!);
    const before = draft.html();
    expect(
      accepted(draft.apply({ kind: 'swap', target: '@0', html: '<p id="n">new</p>' })),
    ).toEqual({ nodes: ['@0'], ids: ['n'] });
    expect(draft.outline().map((e) => [e.node, e.tag, e.id])).toEqual([[1, 'p', 'n']]);
    accepted(draft.undo());
    expect(draft.html()).toBe(before);
  });
});
