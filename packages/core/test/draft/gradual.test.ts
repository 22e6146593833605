// A server rebuilds a large draft a piece at a time (Draft.rebuildGradually) and forgets the
// history it has stored the page of (forgetOldest): both must leave the very draft the whole
// rebuild makes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DraftLog, Operation } from '@galley/core';
import { Draft } from '@galley/core';
import { corpus, corpusMissing } from '../checks/corpus.js';
import { accepted, draftOf } from './support/drafts.js';

/** The corpus's HTML pages, or none (the reason is printed) where it is absent. */
function corpusPages(): Array<[string, string]> {
  const missing = corpusMissing('sites/');
  if (missing) {
    console.log(`skipped the corpus pages: ${missing}`);
    return [];
  }
  const pages: Array<[string, string]> = [];
  const visit = (url: URL, name: string): void => {
    for (const entry of readdirSync(url).sort()) {
      const child = new URL(encodeURIComponent(entry), url);
      if (statSync(child).isDirectory()) visit(new URL(`${child.href}/`), `${name}${entry}/`);
      else if (entry.endsWith('.html'))
        pages.push([`${name}${entry}`, readFileSync(child, 'utf8')]);
    }
  };
  visit(new URL('sites/', corpus), '');
  return pages;
}

const pause = () => Promise.resolve();

/** A page of some 200 KB whose every 64 KiB piece cuts a tag, an attribute or a text. */
function largePage(): string {
  const sections = Array.from(
    { length: 900 },
    (_, i) =>
      `<section id="s${i}" class="a b"><h2 title="t ${i} &amp; more">Part ${i} é😀</h2><p>${'text '.repeat(30)}</p></section>`,
  );
  return `<!doctype html><html><head><title>t</title></head><body>${sections.join('\n')}</body></html>`;
}

/** The draft rebuilt whole and gradually, and how often the gradual rebuild paused. */
async function rebuiltBothWays(html: string, log: DraftLog) {
  const whole = Draft.rebuild(html, log);
  let pauses = 0;
  const pieces = await Draft.rebuildGradually(html, log, () => {
    pauses += 1;
    return pause();
  });
  if (!whole.ok || !pieces.ok) throw new Error('refused');
  return { whole, pieces, pauses };
}

describe('Draft.rebuildGradually', () => {
  const pages: Array<[string, string]> = [['large', largePage()], ...corpusPages()];

  it.each(pages)('rebuilds %s as rebuild does, read in pieces', async (_name, html) => {
    const operations: Operation[] = [
      { kind: 'insert', parent: '@0', html: '<p id="added">new</p>' },
      ...Array.from({ length: 40 }, (_, i): Operation =>
        i % 2 === 0
          ? { kind: 'duplicate', target: '#added' }
          : { kind: 'remove', target: '#added-2' },
      ),
    ];
    const log: DraftLog = { format: 1, operations, applied: 30, sequence: 52 };
    const { whole, pieces, pauses } = await rebuiltBothWays(html, log);
    expect(pieces.draft.html()).toBe(whole.draft.html());
    expect(pieces.draft.outline()).toEqual(whole.draft.outline());
    expect([pieces.draft.sequence, pieces.draft.canUndo, pieces.draft.canRedo]).toEqual([
      52,
      true,
      true,
    ]);
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(html.length / 65536) + 2);
  });

  it('indexes the elements of a page of many in pieces too, an id shared across them', async () => {
    const count = 20_000; // more than twice the elements indexed between two pauses
    const elements = Array.from({ length: count }, (_, i) =>
      i === 10 || i === count - 10 ? '<i id="shared">x</i>' : `<i id="e${i}"></i>`,
    );
    const html = `<body>${elements.join('')}</body>`;
    const log: DraftLog = {
      format: 1,
      operations: [{ kind: 'remove', target: '#shared' }],
      applied: 1,
      sequence: 1,
    };
    const { whole, pieces, pauses } = await rebuiltBothWays(html, log);
    expect(pieces.draft.html()).toBe(whole.draft.html());
    expect(pieces.draft.html()).not.toContain('<i id="e9"></i><i id="shared">'); // the first went
    expect(pieces.draft.html()).toContain('<i id="shared">x</i>');
    const textPieces = Math.ceil(html.length / 65536);
    expect(pauses).toBeGreaterThanOrEqual(textPieces + Math.floor(count / 8192));
  });

  it('refuses what rebuild refuses', async () => {
    const deep = `<body>${'<div>'.repeat(600)}</body>`;
    const bad = {
      format: 1,
      operations: [{ kind: 'remove', target: '#none' }],
      applied: 1,
      sequence: 1,
    };
    for (const [html, log] of [
      [deep, { format: 1, operations: [], applied: 0, sequence: 0 }],
      ['<p>a</p>', bad],
    ] as const) {
      const whole = Draft.rebuild(html, log as DraftLog);
      const pieces = await Draft.rebuildGradually(html, log as DraftLog, pause);
      expect(pieces).toEqual(whole);
      expect(pieces.ok).toBe(false);
    }
  });
});

describe('Draft.forgetOldest', () => {
  it('keeps the newest history undoable and forgets the oldest', () => {
    const draft = draftOf('<ul id="l"><li id="a">a</li></ul>');
    accepted(draft.apply({ kind: 'insert', parent: '#l', html: '<li>one</li>' }));
    accepted(draft.apply({ kind: 'insert', parent: '#l', html: '<li>two</li>' }));
    const afterOne = draft.html();
    accepted(draft.apply({ kind: 'insert', parent: '#l', html: '<li>three</li>' }));
    accepted(draft.undo());
    draft.forgetOldest(1);
    expect([draft.heldChanges, draft.createdContent]).toEqual([2, { elements: 2, characters: 8 }]);
    accepted(draft.undo());
    expect(draft.html()).not.toBe(afterOne);
    expect(draft.canUndo).toBe(false);
    expect(accepted(draft.redo()).nodes).toEqual(['@4']);
    expect(draft.html()).toBe(afterOne);
  });
});
