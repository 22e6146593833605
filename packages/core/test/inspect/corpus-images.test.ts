import { describe, expect, it } from 'vitest';
import { checkFolder, formatOfPath, inspect, validateAssetInput } from '@galley/core';
import { corpus, corpusMissing, readTree } from '../checks/corpus.js';
import { html, projectJson, utf8 } from '../checks/fixtures.js';

const why = corpusMissing('images/image-size-specs/');
if (why) console.warn(`skipped: ${why}`);
const images = why
  ? new Map<string, Uint8Array>()
  : readTree(new URL('images/image-size-specs/', corpus));

/** Image kinds accept these; the others of the corpus (bmp, tiff, heic, jxl…) are refused. */
const imageKind = new Set(['png', 'jpeg', 'gif', 'webp', 'svg', 'avif']);
/** Sizes that differ from the corpus's usual 123×456. */
const sizes: Record<string, [number, number]> = {
  'valid/jpg/1x2-flipped-big-endian.jpg': [1, 2],
  'valid/jpg/1x2-flipped-little-endian.jpg': [1, 2],
  'valid/png/sample_fried.png': [128, 68],
  'valid/ico/multi-size-compressed.ico': [256, 256],
  'valid/ico/sample-256-compressed.ico': [256, 256],
  'valid/ico/sample-compressed.ico': [32, 32],
  'valid/ico/sample.ico': [32, 32],
};
/** Valid images that are still active SVG by decisions §4 (a DOCTYPE, an onclick handler). */
const activeSvg = new Set([
  'valid/svg/ignore-stroke-width.svg',
  'valid/svg/single-quotes.svg',
  'valid/svg/viewbox-width-height-brackets.svg',
  'valid/svg/width-height.svg',
]);
/** Outcome per damaged file: the input error it is, or none (a well-formed SVG without size). */
const invalid: Record<string, string[]> = {
  'invalid/broken-quotes.svg': ['formats.svg_active'],
  // Not well-formed XML: no browser draws them (an attribute name runs into a value; values
  // without quotes).
  'invalid/malformed.svg': ['formats.mismatch'],
  'invalid/no-quotes.svg': ['formats.mismatch'],
  'invalid/sample.png': ['formats.unreadable'],
  'invalid/width.svg': [],
};

/** A corpus path made a valid asset file name (lower case, no folders). */
const assetName = (path: string) =>
  path
    .split('/')
    .pop()!
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-');
const imageFiles = [...images].filter(([path]) =>
  /\.(png|jpe?g|gif|webp|svg|avif|ico)$/i.test(path),
);

describe.skipIf(!!why)('corpus images', () => {
  it.each(imageFiles.filter(([p]) => p.startsWith('valid/')))(
    'reads the dimensions of %s',
    (path, bytes) => {
      const name = assetName(path);
      const [width, height] = sizes[path] ?? [123, 456];
      const folder = checkFolder(
        new Map([
          ['project.json', utf8(projectJson())],
          ['index.html', utf8(html())],
          [name, bytes],
        ]),
      );
      expect(folder.violations.map((v) => v.code)).toEqual(
        activeSvg.has(path) ? ['formats.svg_active'] : [],
      );
      if (!imageKind.has(formatOfPath(name)!)) return;
      const inspection = inspect({
        kind: 'image',
        files: new Map([[name, bytes]]),
        now: '2025-01-01T00:00:00+00:00',
      });
      expect(inspection.checks[2]?.details).toEqual({ sizes: { [name]: { width, height } } });
      expect(inspection.verdict).toBe(activeSvg.has(path) ? 'failed' : 'passed');
    },
  );

  it('refuses the corpus formats an image asset does not take, without throwing', () => {
    const others = [...images].filter(
      ([p]) => p.startsWith('valid/') && !imageKind.has(formatOfPath(assetName(p)) ?? ''),
    );
    expect(others.length).toBeGreaterThan(10);
    for (const [path, bytes] of others)
      expect(
        validateAssetInput({ kind: 'image', files: new Map([[assetName(path), bytes]]) }).map(
          (e) => e.code,
        ),
        path,
      ).toEqual(['formats.kind']);
  });

  it.each(Object.entries(invalid))('guards %s: %j, never a throw', (path, codes) => {
    const bytes = images.get(path)!;
    const name = assetName(path);
    expect(
      validateAssetInput({ kind: 'image', files: new Map([[name, bytes]]) }).map((e) => e.code),
    ).toEqual(codes);
    const inspection = inspect({
      kind: 'image',
      files: new Map([[name, bytes]]),
      now: '2025-01-01T00:00:00+00:00',
    });
    expect(inspection.verdict).toBe(codes.length > 0 ? 'failed' : 'unchecked');
    expect(inspection.checks[2]).toMatchObject({
      verdict: 'unchecked',
      details: { unreadable: [name] },
    });
  });
});
