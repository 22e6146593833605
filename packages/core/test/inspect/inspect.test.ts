import { describe, expect, it } from 'vitest';
import { Inspection, inspect, type AssetInput } from '@galley/core';
import { folderOf, gif, png, svg } from '../checks/fixtures.js';

const now = '2025-01-02T03:04:05+00:00';
const run = (input: AssetInput) => Inspection.strict().parse(inspect({ ...input, now }));
const production = (medium: unknown = { id: 'banner', version: 1 }) =>
  JSON.stringify({ format: 1, title: 'Spring', medium, media_contract: { version: '1.0' } });

describe('inspect', () => {
  it('judges an image: every standard, its size, the media whose canvas it fits', () => {
    const inspection = run({ kind: 'image', files: folderOf({ 'image.png': png(300, 250) }) });
    expect(inspection.verdict).toBe('passed');
    expect(inspection.inspected_at).toBe(now);
    expect(inspection.contracts).toEqual({ 'media-contract': '1.0', 'svc-contract': '1.0' });
    expect(
      inspection.checks.map((c) => [c.standard, c.contract, c.version, c.target, c.verdict]),
    ).toEqual([
      ['names', 'svc-contract', '1.0', null, 'passed'],
      ['formats', 'svc-contract', '1.0', null, 'passed'],
      ['canvas', 'media-contract', '1.0', 'image.png', 'passed'],
      ['schema', 'svc-contract', '1.0', null, 'passed'],
    ]);
    expect(inspection.checks[2]?.details).toEqual({
      sizes: { 'image.png': { width: 300, height: 250 } },
    });
    expect(inspection.media).toEqual([
      { id: 'banner', version: 1, label: 'Banner 300×250', type: 'display', basis: 'canvas' },
    ]);
    expect(
      run({ kind: 'image', files: folderOf({ 'a.gif': gif(1080, 1080) }) }).media.map((m) => m.id),
    ).toEqual(['social']);
    expect(run({ kind: 'image', files: folderOf({ 'a.gif': gif(10, 10) }) }).media).toEqual([]);
  });

  it('fails canvas.size when an image is judged against a medium it does not fit', () => {
    const inspection = run({
      kind: 'image',
      files: folderOf({ 'a.png': png(300, 251) }),
      medium: { id: 'banner', version: 1 },
    });
    expect(inspection.verdict).toBe('failed');
    expect(inspection.checks[2]).toMatchObject({
      standard: 'canvas',
      verdict: 'failed',
      violations: [
        {
          code: 'canvas.size',
          path: 'a.png',
          message: 'The image size differs from the canvas of the medium.',
          expected: { width: 300, height: 250 },
          actual: { width: 300, height: 251 },
        },
      ],
    });
  });

  it('is unchecked when the dimensions cannot be read', () => {
    const inspection = run({
      kind: 'image',
      files: folderOf({ 'a.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    });
    expect(inspection.verdict).toBe('unchecked');
    expect(inspection.checks[2]).toMatchObject({
      verdict: 'unchecked',
      violations: [],
      details: { unreadable: ['a.svg'] },
    });
    expect(inspection.media).toEqual([]);
  });

  it('reads SVG sizes as before: units in pixels, percentages sized by the viewBox alone', () => {
    const sizeOf = (size: string) =>
      run({
        kind: 'image',
        files: folderOf({ 'a.svg': `<svg xmlns="http://www.w3.org/2000/svg" ${size}/>` }),
      }).checks[2];
    expect(sizeOf('width="10cm" height="5mm"')?.details).toEqual({
      sizes: { 'a.svg': { width: 378, height: 19 } },
    });
    expect(sizeOf('width="10px" height="2.5in"')?.details).toEqual({
      sizes: { 'a.svg': { width: 10, height: 240 } },
    });
    expect(sizeOf('viewBox="0 0 30 40"')?.details).toEqual({
      sizes: { 'a.svg': { width: 30, height: 40 } },
    });
    expect(sizeOf('width="100%" height="100%" viewBox="0 0 30 40"')?.details).toEqual({
      sizes: { 'a.svg': { width: 30, height: 40 } },
    });
    for (const unsized of ['width="100%" height="100%"', 'width="-5vw" height="10"', ''])
      expect([unsized, sizeOf(unsized)]).toMatchObject([
        unsized,
        { verdict: 'unchecked', details: { unreadable: ['a.svg'] } },
      ]);
  });

  it('fails formats for an SVG declaring a side of 0 or below, as for a raster header', () => {
    for (const size of ['width="0" height="0"', 'width="-5" height="-5"']) {
      const inspection = run({
        kind: 'image',
        files: folderOf({ 'z.svg': `<svg xmlns="http://www.w3.org/2000/svg" ${size}/>` }),
      });
      expect(inspection.verdict).toBe('failed');
      expect(inspection.checks[1]?.violations).toMatchObject([
        { code: 'formats.dimensions', path: 'z.svg' },
      ]);
    }
  });

  it('judges a production against its declared medium', () => {
    const files = folderOf({
      'production.json': production(),
      'canvas/bg.png': png(300, 250),
      'canvas/logo.svg': svg(300, 250),
      'canvas/index.html': '<!doctype html><title>x</title>',
      'references/logo/image.png': png(1000, 1000),
      'references/palette.json': JSON.stringify({
        $schema: 'svc://schemas/palette/1',
        colors: [{ name: 'Ink', value: '#000000' }],
      }),
    });
    const inspection = run({ kind: 'production', files });
    expect(inspection.verdict).toBe('passed');
    expect(inspection.media).toEqual([
      { id: 'banner', version: 1, label: 'Banner 300×250', type: 'display', basis: 'declared' },
    ]);
    expect(inspection.checks[2]).toMatchObject({
      target: 'canvas/',
      details: { canvas: { width: 300, height: 250 } },
    });
    expect(inspection.checks[3]?.details).toEqual({
      schemas: {
        'production.json': 'svc://schemas/production/1',
        'references/palette.json': 'svc://schemas/palette/1',
      },
    });

    const wrong = run({
      kind: 'production',
      files: new Map([...files, ['canvas/bg.png', png(728, 90)]]),
    });
    expect(wrong.verdict).toBe('failed');
    expect(wrong.checks.map((c) => c.verdict)).toEqual(['passed', 'passed', 'failed', 'passed']);
  });

  it('fails formats for an SVG whose XLink href has a prefix other than xlink:', () => {
    const image = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:q="http://www.w3.org/1999/xlink" width="10" height="10"><a q:href="javascript:alert(1)"><rect width="5" height="5"/></a><image q:href="https://evil.example/t.png" width="5" height="5"/></svg>`;
    const inspection = run({ kind: 'image', files: folderOf({ 'x.svg': image }) });
    expect(inspection.verdict).toBe('failed');
    expect(inspection.checks[1]?.violations).toMatchObject([
      { code: 'formats.svg_active', path: 'x.svg', actual: ['external_reference'] },
    ]);
  });

  it('fails schema for production.json against the schema named with the write', () => {
    const inspection = run({
      kind: 'production',
      files: folderOf({ 'production.json': production() }),
      schemas: { 'production.json': 'svc://schemas/palette/1' },
    });
    expect(inspection.verdict).toBe('failed');
    const schema = inspection.checks[3];
    expect(schema?.details).toEqual({ schemas: { 'production.json': 'svc://schemas/palette/1' } });
    expect(new Set(schema?.violations.map((v) => [v.code, v.expected].join(' ')))).toEqual(
      new Set(['schema.invalid svc://schemas/palette/1']),
    );
  });

  it('takes the medium given with a production when production.json has none usable', () => {
    const files = folderOf({ 'production.json': '{}', 'canvas/a.png': png(728, 90) });
    const inspection = run({
      kind: 'production',
      files,
      medium: { id: 'leaderboard', version: 1 },
    });
    expect(inspection.media.map((m) => [m.id, m.basis])).toEqual([['leaderboard', 'declared']]);
    expect(inspection.checks[3]?.verdict).toBe('failed'); // production.json fails its schema
  });

  it('fails names, formats and schema for input that breaks them', () => {
    const inspection = run({
      kind: 'data',
      files: folderOf({ 'Copy.json': '{"blocks": []}', 'notes.txt': 'x' }),
      schemas: { 'Copy.json': 'svc://schemas/copy/1' },
    });
    expect(
      inspection.checks.map((c) => [c.standard, c.verdict, c.violations.map((v) => v.code)]),
    ).toEqual([
      ['names', 'failed', ['names.characters']],
      ['formats', 'failed', ['formats.kind']],
      ['canvas', 'passed', []],
      ['schema', 'failed', ['schema.invalid']],
    ]);
    const schemaViolation = inspection.checks[3]?.violations[0];
    expect(schemaViolation).toEqual({
      code: 'schema.invalid',
      path: 'Copy.json',
      message: '/blocks must NOT have fewer than 1 items',
      expected: 'svc://schemas/copy/1',
      actual: '/blocks',
    });
  });

  it('gives equal inspections for equal input', () => {
    const a = folderOf({ 'b.png': png(1, 1) });
    expect(JSON.stringify(run({ kind: 'image', files: a }))).toBe(
      JSON.stringify(run({ kind: 'image', files: new Map(a) })),
    );
  });
});
