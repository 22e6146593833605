import { describe, expect, it } from 'vitest';
import type { DraftLog } from '@galley/core';
import { Draft } from '@galley/core';
import { accepted, draftOf } from './support/drafts.js';

describe('log and rebuild', () => {
  it('a rebuilt draft equals the live one, redo stack and sequence included', () => {
    const draft = draftOf('<ul id="l"><li id="a">a</li><li>b</li></ul>');
    const base = draft.html();
    accepted(draft.apply({ kind: 'duplicate', target: '#a' }));
    accepted(draft.apply({ kind: 'insert', parent: '#l', before: '@2', html: '<li>new</li>' }));
    accepted(draft.apply({ kind: 'move', target: '@4', parent: '@0' }));
    accepted(draft.undo());
    accepted(draft.undo());

    const stored = JSON.stringify(draft.log());
    const log = JSON.parse(stored) as DraftLog;
    expect(log).toEqual({
      format: 1,
      operations: [
        { kind: 'duplicate', target: '#a' },
        { kind: 'insert', parent: '#l', before: '@2', html: '<li>new</li>' },
        { kind: 'move', target: '@4', parent: '@0' },
      ],
      applied: 1,
      sequence: 5,
    });

    const rebuilt = Draft.rebuild(base, log);
    if (!rebuilt.ok) throw new Error(JSON.stringify(rebuilt.errors));
    const copy = rebuilt.draft;
    expect([copy.html(), copy.outline(), copy.canUndo, copy.canRedo, copy.sequence]).toEqual([
      draft.html(),
      draft.outline(),
      true,
      true,
      5,
    ]);
    expect(accepted(copy.redo())).toEqual(accepted(draft.redo()));
    expect(accepted(copy.redo())).toEqual(accepted(draft.redo()));
    expect(copy.html()).toBe(draft.html());
  });

  it('the log is a copy: changing it does not change the draft', () => {
    const draft = draftOf('<p id="a">a</p>');
    accepted(draft.apply({ kind: 'remove', target: '#a' }));
    const log = draft.log();
    (log.operations[0] as { target: string }).target = '#zzz';
    expect(draft.log().operations[0]).toEqual({ kind: 'remove', target: '#a' });
  });
});
