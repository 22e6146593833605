import { describe, expect, it } from 'vitest';
import { Draft } from '@galley/core';
import { accepted, draftOf } from './support/drafts.js';

const page = '<main id="m"><section id="s"><h2>S</h2><p>a <em>b</em></p></section></main>';

/** What a draft holds because of its history, as a server weighs it for its memory bound. */
const held = (draft: Draft) => [
  draft.heldChanges,
  draft.createdContent.elements,
  draft.createdContent.characters,
];

describe('what a draft holds for its history', () => {
  it('counts the elements and text each kind of operation creates; a move creates none', () => {
    const draft = draftOf(page);
    expect(held(draft)).toEqual([0, 0, 0]);
    accepted(draft.apply({ kind: 'insert', parent: '#m', html: '<p>x <b>y</b></p><hr>' }));
    expect(held(draft)).toEqual([1, 3, 3]);
    accepted(draft.apply({ kind: 'duplicate', target: '#s' }));
    expect(held(draft)).toEqual([2, 7, 7]);
    accepted(draft.apply({ kind: 'move', target: '#s', parent: '#m' }));
    expect(held(draft)).toEqual([3, 7, 7]);
    accepted(draft.apply({ kind: 'replace', target: '#s', html: '<div><i>z</i></div>' }));
    expect(held(draft)).toEqual([4, 9, 8]);
    accepted(draft.apply({ kind: 'swap', target: '#m', html: '<p>only</p>' }));
    expect(held(draft)).toEqual([5, 10, 12]);
  });

  it('keeps undone changes until a new operation drops the redo stack', () => {
    const draft = draftOf(page);
    accepted(draft.apply({ kind: 'insert', parent: '#m', html: '<p>1</p><p>2</p>' }));
    accepted(draft.apply({ kind: 'insert', parent: '#m', html: '<p>3</p>' }));
    accepted(draft.undo());
    accepted(draft.undo());
    expect(held(draft)).toEqual([2, 3, 3]);
    accepted(draft.redo());
    expect(held(draft)).toEqual([2, 3, 3]);
    accepted(draft.apply({ kind: 'remove', target: '#s' }));
    expect(held(draft)).toEqual([2, 2, 2]);
  });

  it('a rebuilt draft holds what the draft it was logged from held', () => {
    const draft = draftOf(page);
    accepted(draft.apply({ kind: 'insert', parent: '#m', html: '<p>1</p><p>2</p>' }));
    accepted(draft.apply({ kind: 'duplicate', target: '#s' }));
    accepted(draft.undo());
    const html = `<!DOCTYPE html><html><head><title>t</title></head><body>${page}</body></html>`;
    const rebuilt = Draft.rebuild(html, draft.log());
    if (!rebuilt.ok) throw new Error(JSON.stringify(rebuilt.errors));
    expect(held(rebuilt.draft)).toEqual(held(draft));
  });
});
