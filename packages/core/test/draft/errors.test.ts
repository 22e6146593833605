import { describe, expect, it } from 'vitest';
import type { Draft, Operation } from '@galley/core';
import { Draft as DraftClass, draftErrorCodes } from '@galley/core';
import { bodyOf, draftOf, draftOfPage, refusedWith } from './support/drafts.js';

// Outline: @1 main#m, @2 p#a, @3 em, @4 p#b, @5 img#i, @6 script#s.
const page =
  '<main id="m"><p id="a">A <em>e</em></p><p id="b">B</p></main><img id="i"><script id="s">x()</script>';

/** Applies `operation`, expects a refusal that changes nothing, returns the errors. */
function refuse(operation: unknown, draft: Draft = draftOf(page)) {
  const before = {
    html: draft.html(),
    outline: draft.outline(),
    sequence: draft.sequence,
    log: draft.log(),
  };
  const errors = refusedWith(draft.apply(operation as Operation));
  expect({
    html: draft.html(),
    outline: draft.outline(),
    sequence: draft.sequence,
    log: draft.log(),
  }).toEqual(before);
  expect(draft.canUndo).toBe(false);
  return errors;
}

describe('unresolved_reference', () => {
  it.each([
    [{ kind: 'remove', target: '#nope' }, 'operation.target'],
    [{ kind: 'remove', target: '@7' }, 'operation.target'],
    [{ kind: 'insert', parent: '#nope', html: '<p>x</p>' }, 'operation.parent'],
    [{ kind: 'insert', parent: '@99', html: '<p>x</p>' }, 'operation.parent'],
    [{ kind: 'insert', parent: '#m', before: '#nope', html: '<p>x</p>' }, 'operation.before'],
    [{ kind: 'move', target: '#a', parent: '#m', before: '@42' }, 'operation.before'],
    [{ kind: 'swap', target: '#title', html: 'x' }, 'operation.target'],
  ])('%j → %s', (operation, field) => {
    expect(refuse(operation)).toEqual([{ code: 'unresolved_reference', field }]);
  });

  it('ids outside <body> are not references', () => {
    const draft = draftOfPage(
      '<html><head><title id="h">t</title></head><body><p>x</p></body></html>',
    );
    expect(refuse({ kind: 'remove', target: '#h' }, draft)).toEqual([
      { code: 'unresolved_reference', field: 'operation.target' },
    ]);
  });

  it('reports every unresolved field at once', () => {
    expect(refuse({ kind: 'move', target: '#x', parent: '#y', before: '#z' })).toEqual([
      { code: 'unresolved_reference', field: 'operation.target' },
      { code: 'unresolved_reference', field: 'operation.parent' },
      { code: 'unresolved_reference', field: 'operation.before' },
    ]);
  });
});

describe('not_a_child', () => {
  it.each([
    { kind: 'insert', parent: '#m', before: '#i', html: '<p>x</p>' },
    { kind: 'insert', parent: '#m', before: '@3', html: '<p>x</p>' },
    { kind: 'move', target: '#i', parent: '#a', before: '#b' },
  ])('%j', (operation) => {
    expect(refuse(operation)).toEqual([{ code: 'not_a_child', field: 'operation.before' }]);
  });
});

describe('move_into_self', () => {
  it.each([
    { kind: 'move', target: '#m', parent: '#m' },
    { kind: 'move', target: '#m', parent: '#a' },
    { kind: 'move', target: '@1', parent: '@3' },
  ])('%j', (operation) => {
    expect(refuse(operation)).toEqual([{ code: 'move_into_self', field: 'operation.parent' }]);
  });
});

describe('body_not_allowed: <body> cannot be removed, moved, duplicated or replaced', () => {
  it.each([
    [{ kind: 'move', target: '@0', parent: '#m' }, 'operation.target'],
    [{ kind: 'remove', target: '@0' }, 'operation.target'],
    [{ kind: 'duplicate', target: '@0' }, 'operation.target'],
    [{ kind: 'replace', target: '@0', html: '<p>x</p>' }, 'operation.target'],
    [{ kind: 'insert', parent: '@0', before: '@0', html: '<p>x</p>' }, 'operation.before'],
  ])('%j → %s', (operation, field) => {
    expect(refuse(operation)).toEqual([{ code: 'body_not_allowed', field }]);
  });

  it('says what is refused and that the content of <body> can be swapped', () => {
    const message = draftErrorCodes.body_not_allowed.message;
    expect(message).toMatch(/moved, removed, duplicated, replaced or used as `before`/);
    expect(message).toMatch(/content can be swapped/);
  });

  it('also when <body> is named by its id', () => {
    const draft = draftOfPage('<html><head></head><body id="top"><p>x</p></body></html>');
    expect(refuse({ kind: 'remove', target: '#top' }, draft)).toEqual([
      { code: 'body_not_allowed', field: 'operation.target' },
    ]);
  });
});

describe('not_a_container', () => {
  it.each([
    [{ kind: 'insert', parent: '#i', html: '<b>x</b>' }, 'operation.parent'],
    [{ kind: 'move', target: '#a', parent: '#i' }, 'operation.parent'],
    [{ kind: 'move', target: '#a', parent: '#s' }, 'operation.parent'],
    [{ kind: 'swap', target: '#i', html: 'x' }, 'operation.target'],
  ])('%j → %s', (operation, field) => {
    expect(refuse(operation)).toEqual([{ code: 'not_a_container', field }]);
  });
});

describe('malformed_html', () => {
  it.each([
    ['empty', ''],
    ['only white space', ' \n\t'],
    ['an element left open', '<div>'],
    ['an end tag implied by a start tag', '<p>a<p>b</p>'],
    ['mis-nested end tags', '<b><i>x</b></i>'],
    ['a stray end tag', 'x</div>'],
    ['</br>, which browsers turn into <br>', '</br>'],
    ['</p>, which browsers turn into <p></p>', '</p>'],
    ['an end tag for a void element', '<img></img>'],
    ['a self-closing non-void element outside SVG', '<div/>'],
    ['an unclosed raw-text element', '<script>x'],
    ['a doctype', '<!DOCTYPE html><p>x</p>'],
    ['<body>', '<body><p>x</p></body>'],
    ['<html>', '<html></html>'],
    ['<head>', '<head></head>'],
  ])('%s: %j', (_, html) => {
    expect(refuse({ kind: 'insert', parent: '#m', html })).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
  });

  it('refuses nesting past 512 levels, counting the levels above the parent', () => {
    const nested = (n: number) => '<div>'.repeat(n) + '</div>'.repeat(n);
    // #m sits at depth 3 (html > body > main): 509 more levels fit, 510 do not.
    expect(draftOf(page).apply({ kind: 'insert', parent: '#m', html: nested(509) }).ok).toBe(true);
    expect(refuse({ kind: 'insert', parent: '#m', html: nested(510) })).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
    const deep = draftOf('<div id="d"></div>');
    const deepest = () => `@${deep.outline().length}`;
    for (let i = 0; i < 5; i++) {
      expect(deep.apply({ kind: 'insert', parent: deepest(), html: nested(100) }).ok).toBe(true);
    }
    const html = deep.html();
    expect(
      refusedWith(deep.apply({ kind: 'insert', parent: deepest(), html: nested(100) })),
    ).toEqual([{ code: 'malformed_html', field: 'operation.html' }]);
    expect(deep.html()).toBe(html);
  });

  it('the same rules hold for replace, and for swap except emptiness', () => {
    expect(refuse({ kind: 'replace', target: '#a', html: '' })).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
    expect(refuse({ kind: 'swap', target: '#a', html: '<p>a<p>b' })).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
  });

  it('inside <svg>, an element left open is still refused, the wrapper cannot be closed', () => {
    const draft = draftOf('<svg id="s"></svg>');
    expect(refuse({ kind: 'insert', parent: '#s', html: '<g>' }, draft)).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
    expect(refuse({ kind: 'insert', parent: '#s', html: '</svg><p>x</p>' }, draft)).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
  });

  it('text for a raw-text element may not hold its end tag', () => {
    expect(refuse({ kind: 'swap', target: '#s', html: 'a("</SCRIPT>")' })).toEqual([
      { code: 'malformed_html', field: 'operation.html' },
    ]);
  });

  it('is reported together with reference errors', () => {
    expect(refuse({ kind: 'insert', parent: '#x', html: '<div>' })).toEqual([
      { code: 'unresolved_reference', field: 'operation.parent' },
      { code: 'malformed_html', field: 'operation.html' },
    ]);
  });
});

describe('invalid_operation (the shape, before anything resolves)', () => {
  it.each([
    [{ kind: 'rename', target: '#a' }, 'operation.kind'],
    [{ kind: 'remove', target: '#a', extra: 1 }, 'operation.extra'],
    [{ kind: 'remove', target: 'a' }, 'operation.target'],
    [{ kind: 'remove', target: '@01' }, 'operation.target'],
    [{ kind: 'insert', parent: '#m' }, 'operation.html'],
    [{ kind: 'insert', parent: '#m', html: 5 }, 'operation.html'],
    [{ kind: 'move', target: '#a', parent: '#m', before: null }, 'operation.before'],
  ])('%j → %s', (operation, field) => {
    expect(refuse(operation)).toEqual([{ code: 'invalid_operation', field }]);
  });
});

describe('nothing_to_undo and nothing_to_redo', () => {
  it('are refusals without a field, and change nothing', () => {
    const draft = draftOf(page);
    expect(refusedWith(draft.undo())).toEqual([{ code: 'nothing_to_undo', field: null }]);
    expect(refusedWith(draft.redo())).toEqual([{ code: 'nothing_to_redo', field: null }]);
    expect([draft.sequence, bodyOf(draft)]).toEqual([0, page]);
  });
});

describe('opening and rebuilding', () => {
  it('no_body: a frameset document has no body to edit', () => {
    const opened = DraftClass.open(
      '<!DOCTYPE html><html><head><title>x</title></head><frameset><frame src="a.html"></frameset></html>',
    );
    expect(opened.ok ? [] : opened.errors.map((e) => [e.code, e.field])).toEqual([
      ['no_body', 'html'],
    ]);
  });

  it('invalid_log: a log of the wrong shape, or one that does not replay on this base', () => {
    const draft = draftOf(page);
    draft.apply({ kind: 'remove', target: '#a' });
    const shape = DraftClass.rebuild(draft.html(), { ...draft.log(), applied: 9 });
    expect(shape.ok ? [] : shape.errors.map((e) => [e.code, e.field])).toEqual([
      ['invalid_log', 'log.applied'],
    ]);
    const replay = DraftClass.rebuild('<html><body><p>other</p></body></html>', draft.log());
    expect(replay.ok ? [] : replay.errors.map((e) => [e.code, e.field])).toEqual([
      ['invalid_log', 'log.operations.0'],
    ]);
  });
});

describe('the catalog', () => {
  it('has a message for every code', () => {
    for (const [code, entry] of Object.entries(draftErrorCodes)) {
      expect(entry.message.length, code).toBeGreaterThan(10);
    }
  });
});
