// Facts of contents read by one inspection, given to the next as `known`: the second inspection
// equals one from scratch, a known content at another path reports that path, and nothing known
// is read again.
import { describe, expect, it } from 'vitest';
import {
  inspect,
  inspectContents,
  knownFacts,
  validateAssetInput,
  type AssetInput,
  type KnownFacts,
} from '@galley/core';
import { folderOf, png, svg } from '../checks/fixtures.js';

const now = '2025-01-02T03:04:05+00:00';
const production = JSON.stringify({
  format: 1,
  title: 'Spring',
  medium: { id: 'banner', version: 1 },
  media_contract: { version: '1.0' },
});
/** Each content's "hash": its text, enough for facts keyed by content. */
const contentsOf = (files: AssetInput['files']) =>
  Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes).toString('hex')]));

/** The format of each content the facts are of, sorted. */
const formatsOf = (facts: KnownFacts) =>
  [...facts].flatMap(([format, byContent]) => [...byContent.keys()].map(() => format)).sort();

describe('inspectContents with known facts', () => {
  const first = folderOf({
    'production.json': production,
    'canvas/a.png': png(300, 250),
    'canvas/wrong.png': png(728, 90),
    'canvas/a.css': 'a{}',
    'canvas/v.svg': svg(300, 250, '<script>alert(1)</script>'),
  });
  const run = (files: AssetInput['files'], known: KnownFacts = new Map()) =>
    inspectContents({ kind: 'production', files, contents: contentsOf(files), known, now });

  it('learns the facts of every content, and equals inspect', () => {
    const { inspection, learned } = run(first);
    expect(inspection).toEqual(inspect({ kind: 'production', files: first, now }));
    expect(formatsOf(learned)).toEqual(['css', 'json', 'png', 'png', 'svg']);
    expect(knownFacts(learned, 'svg', contentsOf(first)['canvas/v.svg']!)?.problem).toMatchObject({
      code: 'formats.svg_active',
      path: 'canvas/v.svg',
    });
  });

  it('gives the inspection from scratch when one file changed and known ones moved', () => {
    const { learned } = run(first);
    const next = new Map(first);
    next.set('canvas/a.css', new TextEncoder().encode('b{}'));
    next.set('canvas/moved.svg', first.get('canvas/v.svg')!);
    next.delete('canvas/v.svg');
    const again = run(next, learned);
    expect(JSON.stringify(again.inspection)).toBe(
      JSON.stringify(inspect({ kind: 'production', files: next, now })),
    );
    expect(again.inspection.checks[1]?.violations.map((v) => v.path)).toEqual(['canvas/moved.svg']);
    // Only the changed content was read.
    expect(formatsOf(again.learned)).toEqual(['css']);
    expect(knownFacts(again.learned, 'css', contentsOf(next)['canvas/a.css']!)).toBeDefined();
  });

  it('needs no bytes of the files whose facts are known but JSON, and says so of the others', () => {
    const { learned } = run(first);
    const next = new Map(first);
    next.set('canvas/a.css', new TextEncoder().encode('b{}'));
    // The revision's files are those of `contents`; only the changed one and the JSON come.
    const contents = contentsOf(next);
    const files = new Map([
      ...folderOf({ 'production.json': production }),
      ['canvas/a.css', next.get('canvas/a.css')!],
    ]);
    const input = { kind: 'production' as const, files, contents, known: learned };
    const whole = { kind: 'production' as const, files: next };
    expect(JSON.stringify(inspectContents({ ...input, now }).inspection)).toBe(
      JSON.stringify(inspect({ ...whole, now })),
    );
    expect(validateAssetInput(input)).toEqual(validateAssetInput(whole));
    expect(validateAssetInput(input).map((v) => v.code)).toEqual(['formats.svg_active']);
    // A file left out whose facts are not known is a caller's mistake, not a passing file.
    const unknown = { ...contents, 'canvas/new.png': 'ff' };
    expect(() => inspectContents({ ...input, contents: unknown, now })).toThrow(
      'canvas/new.png: neither its bytes nor its facts are known',
    );
  });
});
