import { describe, expect, it } from 'vitest';
import { DraftLog, ElementRef, Operation, OperationRequest, OutlineEntry } from '@galley/core';
import { draftOf } from './support/drafts.js';

describe('ElementRef', () => {
  it.each(['#a', '#caf\u00e9', '#a-2', '#1', '@0', '@1', '@30000'])('accepts %j', (ref) => {
    expect(ElementRef.safeParse(ref).success).toBe(true);
  });
  it.each([
    '',
    '#',
    '# a',
    '#a b',
    'a',
    '@',
    '@01',
    '@-1',
    '@1.5',
    '@1e3',
    ' @1',
    '@1 ',
    '@1234567890123456',
  ])('rejects %j', (ref) => {
    expect(ElementRef.safeParse(ref).success).toBe(false);
  });
});

describe('Operation', () => {
  it.each([
    { kind: 'insert', parent: '@0', html: '<p>x</p>' },
    { kind: 'insert', parent: '#m', html: '', before: '@2' },
    { kind: 'move', target: '#a', parent: '@0' },
    { kind: 'move', target: '#a', parent: '@0', before: '#b' },
    { kind: 'remove', target: '@3' },
    { kind: 'duplicate', target: '#a' },
    { kind: 'replace', target: '#a', html: '<b>x</b>' },
    { kind: 'swap', target: '#a', html: 'x' },
  ])('accepts %j', (operation) => {
    expect(Operation.parse(operation)).toEqual(operation);
  });

  it.each([
    ['an unknown kind', { kind: 'rename', target: '#a' }],
    ['no kind', { target: '#a' }],
    ['an unknown field', { kind: 'remove', target: '#a', html: 'x' }],
    ['a missing field', { kind: 'move', target: '#a' }],
    ['a wrong type', { kind: 'swap', target: '#a', html: null }],
    ['a bad reference', { kind: 'duplicate', target: 'div > p' }],
    ['not an object', 'remove #a'],
  ])('rejects %s', (_, operation) => {
    expect(Operation.safeParse(operation).success).toBe(false);
  });
});

describe('OperationRequest', () => {
  const operation = { kind: 'remove', target: '#a' };
  it('takes draft_token, operation and an optional outline flag', () => {
    expect(OperationRequest.safeParse({ draft_token: 't', operation }).success).toBe(true);
    expect(OperationRequest.safeParse({ draft_token: 't', operation, outline: true }).success).toBe(
      true,
    );
  });
  it.each([
    { operation },
    { draft_token: '', operation },
    { draft_token: 't', operation, outline: 'yes' },
    { draft_token: 't', operation, extra: 1 },
    { draft_token: 't', operation: { ...operation, kind: 'delete' } },
  ])('rejects %j', (body) => {
    expect(OperationRequest.safeParse(body).success).toBe(false);
  });
});

describe('OutlineEntry and DraftLog', () => {
  it('describe what a draft hands out', () => {
    const draft = draftOf('<p id="a" class="x y">Text</p><div><span>s</span></div>');
    draft.apply({ kind: 'duplicate', target: '#a' });
    draft.apply({ kind: 'remove', target: '@3' });
    draft.undo();
    for (const entry of draft.outline()) expect(OutlineEntry.parse(entry)).toEqual(entry);
    expect(DraftLog.parse(JSON.parse(JSON.stringify(draft.log())))).toEqual(draft.log());
  });
  it('a log cannot claim more applied operations than it holds', () => {
    expect(DraftLog.safeParse({ format: 1, operations: [], applied: 1, sequence: 1 }).success).toBe(
      false,
    );
  });
});
