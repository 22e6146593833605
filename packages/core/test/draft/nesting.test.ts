import { Parser } from 'htmlparser2';
import { describe, expect, it, vi } from 'vitest';
import type { Operation } from '@galley/core';
import { Draft } from '@galley/core';
import { readPage } from '../../src/html/page.js';
import { draftOf } from './support/drafts.js';

/**
 * Start and end tags htmlparser2's tokenizer hands to its parser while `run` runs: how far a
 * parse read, and an upper bound on the elements it built.
 */
function tagsRead<T>(run: () => T): { result: T; starts: number; ends: number } {
  const starts = vi.spyOn(Parser.prototype, 'onopentagname');
  const ends = vi.spyOn(Parser.prototype, 'onclosetag');
  try {
    const result = run();
    return { result, starts: starts.mock.calls.length, ends: ends.mock.calls.length };
  } finally {
    starts.mockRestore();
    ends.mockRestore();
  }
}

const far = 200_000;
const tooDeepFragment = [
  {
    code: 'malformed_html',
    message: 'The fragment nests elements deeper than the page allows (512 levels).',
    field: 'operation.html',
  },
];

describe('a fragment nested far past 512 levels', () => {
  // #m sits at depth 3 (html > body > main): 509 levels fit below it, the 510th is refused.
  const page = '<main id="m"><p>x</p></main><svg id="s"><g></g></svg>';

  it.each([
    ['unclosed <div>s', '<div>'.repeat(far)],
    ['unclosed <b>s', '<b>'.repeat(far)],
    ['closed <div>s', '<div>'.repeat(far) + '</div>'.repeat(far)],
    ['<div>s with text and attributes', '<div class="c">text '.repeat(far)],
  ])('%s: refused as before, after reading 510 start tags and no end tag', (_, html) => {
    const draft = draftOf(page);
    const before = draft.html();
    const { result, starts, ends } = tagsRead(() =>
      draft.apply({ kind: 'insert', parent: '#m', html }),
    );
    expect(result.ok ? [] : result.errors).toEqual(tooDeepFragment);
    expect({ starts, ends }).toEqual({ starts: 510, ends: 0 });
    expect(draft.html()).toBe(before);
  });

  it.each<[string, Operation]>([
    ['replace', { kind: 'replace', target: '#m', html: '<b>'.repeat(far) }],
    ['swap', { kind: 'swap', target: '#m', html: '<b>'.repeat(far) }],
    ['insert into <svg>', { kind: 'insert', parent: '#s', html: '<g>'.repeat(far) }],
  ])('%s: the same refusal, with reading bounded by the limit', (_, operation) => {
    const draft = draftOf(page);
    const { result, starts, ends } = tagsRead(() => draft.apply(operation));
    expect(result.ok ? [] : result.errors).toEqual(tooDeepFragment);
    expect(starts).toBeLessThanOrEqual(513);
    expect(ends).toBe(0);
  });
});

describe('a page nested past 512 levels', () => {
  const document = (body: string) =>
    `<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`;

  it.each([
    ['80,000 unclosed <div>s (400 KB)', '<div>'.repeat(80_000)],
    ['80,000 unclosed <b>s', '<b>'.repeat(80_000)],
    ['200,000 closed <div>s', '<div>'.repeat(far) + 'x' + '</div>'.repeat(far)],
  ])('%s: too_deep, read no further than its first element too deep', (_, body) => {
    const { result, starts, ends } = tagsRead(() => Draft.open(document(body)));
    expect(result.ok ? [] : result.errors).toEqual([
      {
        code: 'too_deep',
        message:
          'The page nests elements more than 512 deep (the limit of the `pages` check); it was not read further.',
        field: 'html',
      },
    ]);
    // html, head, title and body, then 510 <div>s (depths 3 to 512) and the one too deep.
    expect({ starts, ends }).toEqual({ starts: 4 + 511, ends: 2 });
  });

  it('rebuilding on such a base is refused the same way', () => {
    const rebuilt = Draft.rebuild(document('<b>'.repeat(far)), {
      format: 1,
      operations: [],
      applied: 0,
      sequence: 0,
    });
    expect(rebuilt.ok ? [] : rebuilt.errors.map((e) => [e.code, e.field])).toEqual([
      ['too_deep', 'html'],
    ]);
  });

  it.each([
    ['512 levels', document('<div>'.repeat(510) + '</div>'.repeat(510)), true],
    ['513 levels', document('<div>'.repeat(511) + '</div>'.repeat(511)), false],
    ['a void element at level 513', document('<div>'.repeat(510) + '<img>'), false],
    ['512 levels without <html> and <body> tags', '<title>t</title>' + '<b>'.repeat(512), true],
    ['513 levels without <html> and <body> tags', '<title>t</title>' + '<b>'.repeat(513), false],
    ['20,000 <p>s, each closing the one before', document('<p>x'.repeat(20_000)), true],
    ['20,000 stray end tags', document('<div>'.repeat(500) + '</x>'.repeat(20_000)), true],
  ])('%s: opens exactly when the pages check reads it whole', (_, html, opens) => {
    const opened = Draft.open(html);
    expect(opened.ok ? [] : opened.errors.map((e) => e.code)).toEqual(opens ? [] : ['too_deep']);
    expect(readPage(html).tooDeep).toBe(!opens);
    if (opened.ok) expect(opened.draft.html().length).toBeGreaterThan(0);
  });
});
