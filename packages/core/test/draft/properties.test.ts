// Property-based: random documents, random sequences of operations, undos and redos, checked
// against a naive reference draft at every step, then the invariants of the issue.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChangeResult, DraftLog, Operation } from '@galley/core';
import { Draft } from '@galley/core';
import { documents } from './support/documents.js';
import type { ModelAnswer } from './support/reference-model.js';
import { fragmentPool, ReferenceDraft } from './support/reference-model.js';

const numRuns = process.env['CI'] ? 1000 : 120;

const wellFormed = fragmentPool.flatMap((fragment, index) =>
  fragment.label === 'ok' ? [index] : [],
);
const kinds = ['insert', 'move', 'remove', 'duplicate', 'replace', 'swap'] as const;
type Action =
  | { do: 'undo' | 'redo' }
  | { do: 'op'; kind: (typeof kinds)[number]; picks: number[]; viaId: boolean[]; fragment: number };

/** Each step, and whether the outline is read after it (changes pile up between readings). */
const actions = fc.array(
  fc.tuple(
    fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom<Action>({ do: 'undo' }, { do: 'redo' }) },
      {
        weight: 5,
        arbitrary: fc.record({
          do: fc.constant('op' as const),
          kind: fc.constantFrom(...kinds),
          picks: fc.array(fc.nat(1000), { minLength: 4, maxLength: 4 }),
          viaId: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
          fragment: fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...wellFormed) },
            { weight: 1, arbitrary: fc.nat(fragmentPool.length - 1) },
          ),
        }),
      },
    ),
    fc.boolean(),
  ),
  { maxLength: 14 },
);

/** A reference to an element of the model's current outline; now and then one that resolves nowhere. */
function reference(model: ReferenceDraft, pick: number, viaId: boolean): string {
  const list = model.elements();
  if (pick % 23 === 22) return viaId ? '#nowhere' : `@${list.length + 1}`;
  const index = pick % (list.length + 1);
  const id = list[index - 1]?.attribs['id'];
  return viaId && id ? `#${id}` : `@${index}`;
}

/** `before`: absent, a child of the parent (mostly), or any element (mostly not a child). */
function beforeFor(
  model: ReferenceDraft,
  parentRef: string,
  pick: number,
  viaId: boolean,
): string | undefined {
  if (pick % 3 === 0) return undefined;
  const list = model.elements();
  const parent =
    parentRef === '@0'
      ? model.body()
      : parentRef.startsWith('@')
        ? list[Number(parentRef.slice(1)) - 1]
        : list.find((e) => e.attribs['id'] === parentRef.slice(1));
  const children = parent?.children.filter((c) => list.includes(c as never)) ?? [];
  if (pick % 3 === 1 && children.length > 0) {
    const child = children[pick % children.length]!;
    return `@${list.indexOf(child as never) + 1}`;
  }
  return reference(model, pick >> 2, viaId);
}

function operationFor(model: ReferenceDraft, action: Extract<Action, { do: 'op' }>): Operation {
  const [p0 = 0, p1 = 0, p2 = 0] = action.picks;
  const [v0 = false, v1 = false, v2 = false] = action.viaId;
  const html = fragmentPool[action.fragment]!.html;
  const first = reference(model, p0, v0);
  const before = (parent: string): { before?: string } => {
    const ref = beforeFor(model, parent, p2, v2);
    return ref === undefined ? {} : { before: ref };
  };
  switch (action.kind) {
    case 'insert':
      return { kind: 'insert', parent: first, html, ...before(first) };
    case 'move': {
      const parent = reference(model, p1, v1);
      return { kind: 'move', target: first, parent, ...before(parent) };
    }
    case 'remove':
    case 'duplicate':
      return { kind: action.kind, target: first };
    case 'replace':
    case 'swap':
      return { kind: action.kind, target: first, html };
  }
}

function same(got: ChangeResult, want: ModelAnswer, compareResult: boolean): void {
  if (!got.ok) {
    const errors = got.errors
      .map((e) => (e.field === null ? e.code : `${e.code}@${e.field}`))
      .sort();
    expect(want.ok ? [] : want.errors).toEqual(errors);
  } else {
    expect(want.ok, 'the reference refused what the draft did').toBe(true);
    if (compareResult && want.ok) expect(got.result).toEqual(want.result);
  }
}

function openDraft(html: string): Draft {
  const opened = Draft.open(html);
  if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
  return opened.draft;
}

function run(draft: Draft, step: 'undo' | 'redo'): void {
  while (step === 'undo' ? draft.canUndo : draft.canRedo) expect(draft[step]().ok).toBe(true);
}

describe('random documents and operation sequences', () => {
  it('match a naive reference draft at every step; undo, redo, rebuild and ids hold', () => {
    fc.assert(
      fc.property(documents, actions, (html, steps) => {
        const draft = openDraft(html);
        const base = draft.html();
        const model = new ReferenceDraft(base);

        for (const [step, look] of steps) {
          const previous = draft.html();
          if (step.do === 'op') {
            const operation = operationFor(model, step);
            const got = draft.apply(operation);
            same(got, model.apply(operation, fragmentPool[step.fragment]), true);
            if (!got.ok) expect(draft.html(), 'a refused operation changes nothing').toBe(previous);
          } else {
            same(draft[step.do](), model[step.do](), false);
          }
          expect(draft.html()).toBe(model.html());
          if (look) expect(draft.outline()).toEqual(model.outline());
          expect([draft.canUndo, draft.canRedo]).toEqual([model.canUndo, model.canRedo]);
        }

        const outline = draft.outline();
        expect(outline).toEqual(model.outline());
        expect(outline.map((entry) => entry.node)).toEqual(outline.map((_, i) => i + 1));
        const ids = outline.flatMap((entry) =>
          entry.id && !entry.id.startsWith('dup') ? [entry.id] : [],
        );
        expect(new Set(ids).size, 'ids stay unique').toBe(ids.length);

        const log = JSON.parse(JSON.stringify(draft.log())) as DraftLog;
        const rebuilt = Draft.rebuild(html, log);
        if (!rebuilt.ok) throw new Error(JSON.stringify(rebuilt.errors));
        const copy = rebuilt.draft;
        expect(copy.html()).toBe(draft.html());
        expect(copy.outline()).toEqual(draft.outline());
        expect([copy.canUndo, copy.canRedo, copy.sequence]).toEqual([
          draft.canUndo,
          draft.canRedo,
          draft.sequence,
        ]);

        run(draft, 'redo');
        const latest = draft.html();
        for (const subject of [draft, copy]) {
          run(subject, 'undo');
          expect(subject.html(), 'undoing all restores the original').toBe(base);
          run(subject, 'redo');
          expect(subject.html(), 'redoing all gives the latest state').toBe(latest);
        }
      }),
      { numRuns },
    );
  });
});
