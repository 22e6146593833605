import { describe, expect, it } from 'vitest';
import {
  AssetInputError,
  validateAssetInput,
  validateAssetPaths,
  type AssetInput,
} from '@galley/core';
import { folderOf, png, svg, utf8 } from '../checks/fixtures.js';

const codes = (input: AssetInput) => validateAssetInput(input).map((e) => [e.path, e.code]);
const production = JSON.stringify({
  format: 1,
  title: 'Spring',
  medium: { id: 'banner', version: 1 },
  media_contract: { version: '1.0' },
});

describe('validateAssetInput (v2 422 rule)', () => {
  it('accepts valid input of every kind, including an image of the wrong size', () => {
    expect(
      validateAssetInput({
        kind: 'image',
        files: folderOf({ 'image.png': png(5, 5) }),
        medium: { id: 'banner', version: 1 },
      }),
    ).toEqual([]);
    expect(
      validateAssetInput({ kind: 'font', files: folderOf({ 'font.woff2': utf8('wOF2...') }) }),
    ).toEqual([]);
    expect(
      validateAssetInput({
        kind: 'production',
        files: folderOf({ 'production.json': production, 'canvas/a.png': png(1, 1) }),
      }),
    ).toEqual([]);
    expect(
      validateAssetInput({
        kind: 'data',
        files: folderOf({
          'p.json':
            '{"$schema":"svc://schemas/palette/1","colors":[{"name":"a","value":"#ffffff"}]}',
        }),
      }),
    ).toEqual([]);
  });

  it('gives each reason as an inspection violation: code, path, message, expected, actual', () => {
    const [error] = validateAssetInput({ kind: 'image', files: folderOf({ 'a.png': 'text' }) });
    expect(error).toEqual({
      code: 'formats.mismatch',
      path: 'a.png',
      message: 'The content of the file is not the format its extension says.',
      expected: 'png',
      actual: 'text',
    });
    expect(AssetInputError.parse(error)).toEqual(error);
    const [traversal] = validateAssetInput({
      kind: 'image',
      files: folderOf({ '../a.png': png(1, 1) }),
    });
    expect(traversal).toMatchObject({ code: 'names.traversal', expected: null, actual: null });
  });

  it('refuses paths breaking the naming rules', () => {
    expect(codes({ kind: 'image', files: folderOf({ '../a.png': png(1, 1) }) })).toEqual([
      ['../a.png', 'names.traversal'],
    ]);
  });

  it('refuses the wrong file types or count for the kind', () => {
    expect(
      codes({ kind: 'image', files: folderOf({ 'a.ico': new Uint8Array([0, 0, 1, 0]) }) }),
    ).toEqual([['a.ico', 'formats.kind']]);
    expect(
      codes({ kind: 'image', files: folderOf({ 'a.png': png(1, 1), 'b.png': png(1, 1) }) }),
    ).toEqual([['', 'formats.file_count']]);
    expect(codes({ kind: 'font', files: folderOf({}) })).toEqual([['', 'formats.file_count']]);
    expect(codes({ kind: 'font', files: folderOf({ 'f.woff': utf8('wOF2...') }) })).toEqual([
      ['f.woff', 'formats.mismatch'],
    ]);
    expect(codes({ kind: 'data', files: folderOf({ 'a.csv': 'a,b' }) })).toEqual([
      ['a.csv', 'formats.kind'],
    ]);
  });

  it('refuses a production without production.json or with files outside canvas/ and references/', () => {
    expect(codes({ kind: 'production', files: folderOf({ 'canvas/a.png': png(1, 1) }) })).toEqual([
      ['production.json', 'formats.file_count'],
    ]);
    expect(
      codes({
        kind: 'production',
        files: folderOf({ 'production.json': production, 'notes/a.png': png(1, 1) }),
      }),
    ).toEqual([['notes/a.png', 'names.layout']]);
    expect(
      codes({
        kind: 'production',
        files: folderOf({ 'production.json': production, 'canvas/a.js': 'x' }),
      }),
    ).toEqual([['canvas/a.js', 'formats.kind']]);
  });

  it('refuses an SVG whose XLink href has a prefix other than xlink:', () => {
    const xlinkAs = (prefix: string, inner: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:${prefix}="http://www.w3.org/1999/xlink" width="10" height="10">${inner}</svg>`;
    for (const inner of [
      '<a q:href="javascript:alert(1)"><rect width="5" height="5"/></a>',
      '<image q:href="https://evil.example/t.png" width="5" height="5"/>',
      '<use q:href="https://evil.example/x.svg#a"/>',
    ])
      expect([
        inner,
        codes({ kind: 'image', files: folderOf({ 'x.svg': xlinkAs('q', inner) }) }),
      ]).toEqual([inner, [['x.svg', 'formats.svg_active']]]);
  });

  it('checks production.json against a schema named with the write, and still against production/1', () => {
    const named = (uri: string, content = production) =>
      validateAssetInput({
        kind: 'production',
        files: folderOf({ 'production.json': content }),
        schemas: { 'production.json': uri },
      });
    // A valid production is no palette: no colors, and members palette/1 does not allow.
    const asPalette = named('svc://schemas/palette/1');
    expect(asPalette.length).toBeGreaterThan(0);
    for (const error of asPalette)
      expect(error).toMatchObject({
        code: 'schema.invalid',
        path: 'production.json',
        expected: 'svc://schemas/palette/1',
      });
    expect(named('svc://schemas/menu/1')).toMatchObject([
      { code: 'schema.unknown', path: 'production.json', actual: 'svc://schemas/menu/1' },
    ]);
    expect(named('svc://schemas/production/1')).toEqual([]);
    // Naming another schema never replaces production/1: a palette is not a production.
    const palette = JSON.stringify({ colors: [{ name: 'Ink', value: '#000000' }] });
    const paletteAsProduction = named('svc://schemas/palette/1', palette);
    expect(paletteAsProduction.length).toBeGreaterThan(0);
    expect(new Set(paletteAsProduction.map((e) => e.expected))).toEqual(
      new Set(['svc://schemas/production/1']),
    );
  });

  it('refuses JSON failing its schema, naming an unknown schema, or naming none in data', () => {
    expect(
      codes({
        kind: 'data',
        files: folderOf({ 'a.json': '{"colors":[]}' }),
        schemas: { 'a.json': 'svc://schemas/palette/1' },
      }),
    ).toEqual([['a.json', 'schema.invalid']]);
    expect(
      codes({
        kind: 'data',
        files: folderOf({ 'a.json': '{}' }),
        schemas: { 'a.json': 'svc://schemas/menu/1' },
      }),
    ).toEqual([['a.json', 'schema.unknown']]);
    expect(codes({ kind: 'data', files: folderOf({ 'a.json': '{}' }) })).toEqual([
      ['a.json', 'schema.missing'],
    ]);
    expect(
      codes({
        kind: 'data',
        files: folderOf({ 'a.json': '{' }),
        schemas: { 'a.json': 'svc://schemas/palette/1' },
      }),
    ).toEqual([['a.json', 'formats.mismatch']]);
  });

  it('refuses an unknown medium, oversized images and active SVG', () => {
    const unknown = JSON.stringify({
      format: 1,
      title: 'x',
      medium: { id: 'blimp', version: 1 },
      media_contract: { version: '1.0' },
    });
    expect(codes({ kind: 'production', files: folderOf({ 'production.json': unknown }) })).toEqual([
      ['', 'canvas.medium_unknown'],
    ]);
    expect(codes({ kind: 'image', files: folderOf({ 'a.png': png(20_000, 20_000) }) })).toEqual([
      ['a.png', 'formats.dimensions'],
    ]);
    expect(
      codes({ kind: 'image', files: folderOf({ 'a.svg': svg(1, 1, '<rect onload="x()"/>') }) }),
    ).toEqual([['a.svg', 'formats.svg_active']]);
    expect(
      codes({ kind: 'image', files: folderOf({ 'a.png': png(1, 1).subarray(0, 18) }) }),
    ).toEqual([['a.png', 'formats.unreadable']]);
  });

  it('refuses an SVG declaring a side of 0 or below, keeps one with no declared size', () => {
    const image = (size: string) =>
      folderOf({ 'z.svg': `<svg xmlns="http://www.w3.org/2000/svg" ${size}/>` });
    for (const size of ['width="0" height="0"', 'width="-5" height="-5"', 'width="0"'])
      expect([size, codes({ kind: 'image', files: image(size) })]).toEqual([
        size,
        [['z.svg', 'formats.dimensions']],
      ]);
    for (const size of ['', 'viewBox="0 0 30 40"', 'width="100%" height="100%"', 'width="5"'])
      expect([size, codes({ kind: 'image', files: image(size) })]).toEqual([size, []]);
    expect(codes({ kind: 'image', files: folderOf({ 'a.svg': svg(300, 250) }) })).toEqual([]);
  });
});

describe('validateAssetPaths (invalid on any base)', () => {
  it('gives the naming problem of each path on its own, and nothing for valid names', () => {
    expect(
      validateAssetPaths(['../a.json', 'canvas/ok.png', 'Bad Name.png', 'A.png', 'a.png']).map(
        (e) => [e.path, e.code],
      ),
    ).toEqual([
      ['../a.json', 'names.traversal'],
      ['A.png', 'names.characters'],
      ['Bad Name.png', 'names.characters'],
    ]);
    expect(validateAssetPaths(['image.png', 'canvas/a/b.css'])).toEqual([]);
  });
});
