import { describe, expect, it } from 'vitest';
import { checkFolder, inspect, viewportSize } from '@galley/core';
import { folderOf, html, png, projectJson, svg } from './fixtures.js';

const viewport = (content: string) => `<meta name="viewport" content="${content}">`;
const project = (
  medium: string,
  extra: Record<string, string | Uint8Array>,
  head = viewport('width=1080, height=1080'),
) =>
  checkFolder(
    folderOf({
      'project.json': projectJson(['index.html'], medium),
      'index.html': html({ head }),
      ...extra,
    }),
  );

const bannerProject = (extra: Record<string, string | Uint8Array>) =>
  project('banner', extra, viewport('width=300, height=250'));

describe('canvas check', () => {
  it('passes images under canvas/ of the canvas size and a matching viewport', () => {
    const report = project('social', {
      'canvas/a.png': png(1080, 1080),
      'canvas/b.svg': svg(1080, 1080),
      'other/c.png': png(5, 5),
    });
    expect(report.checks.canvas).toBe('passed');
  });

  it('reports a size difference with typed expected and actual', () => {
    const report = project('social', { 'canvas/a.png': png(1080, 1081) });
    expect(report.violations).toEqual([
      expect.objectContaining({
        code: 'canvas.size',
        path: 'canvas/a.png',
        expected: { width: 1080, height: 1080 },
        actual: { width: 1080, height: 1081 },
      }),
    ]);
  });

  describe('an image under canvas/ with no intrinsic size', () => {
    const unsized = {
      'no size': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'a width alone': '<svg xmlns="http://www.w3.org/2000/svg" width="300"/>',
      percentages: '<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="100%"/>',
    };
    for (const [name, source] of Object.entries(unsized)) {
      it(`fails canvas.size_unknown: ${name}`, () => {
        const report = bannerProject({ 'canvas/a.svg': source });
        expect(report.checks.canvas).toBe('failed');
        expect(report.violations).toEqual([
          {
            check: 'canvas',
            code: 'canvas.size_unknown',
            severity: 'error',
            path: 'canvas/a.svg',
            message: 'The image has no intrinsic size to compare with the canvas.',
            suggestion: 'Give the SVG width and height (or a viewBox).',
          },
        ]);
        expect(report.checks.formats).toBe('passed'); // the file itself is fine
      });
    }

    it('passes when the size comes from a viewBox, and is only judged under canvas/', () => {
      const viewBox = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 250"/>';
      expect(bannerProject({ 'canvas/a.svg': viewBox }).checks.canvas).toBe('passed');
      const elsewhere = bannerProject({ 'img/a.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' });
      expect(elsewhere.checks.canvas).toBe('passed');
    });

    it('is reported for each such image, beside a wrong size', () => {
      const report = bannerProject({
        'canvas/a.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
        'canvas/b.png': png(1, 1),
      });
      expect(report.violations.map((v) => [v.code, v.path])).toEqual([
        ['canvas.size_unknown', 'canvas/a.svg'],
        ['canvas.size', 'canvas/b.png'],
      ]);
    });
  });

  it('changes the v1 folder check only: a v2 inspection of the same SVG stays unchecked', () => {
    const source = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const now = '2025-01-02T03:04:05+00:00';
    const medium = { id: 'banner', version: 1 };
    const image = inspect({ kind: 'image', files: folderOf({ 'a.svg': source }), medium, now });
    const production = inspect({
      kind: 'production',
      files: folderOf({
        'production.json': JSON.stringify({
          format: 1,
          title: 'Spring',
          medium,
          media_contract: { version: '1.0' },
        }),
        'canvas/a.svg': source,
      }),
      now,
    });
    for (const inspection of [image, production]) {
      expect(inspection.verdict).toBe('unchecked');
      expect(inspection.checks.find((c) => c.standard === 'canvas')).toMatchObject({
        verdict: 'unchecked',
        violations: [],
      });
    }
  });

  it('leaves a damaged image to formats.unreadable: canvas is unchecked', () => {
    const report = bannerProject({ 'canvas/a.png': png(300, 250).subarray(0, 20) });
    expect(report.checks.canvas).toBe('unchecked');
    expect(report.checks.formats).toBe('failed');
    expect(report.violations.map((v) => v.code)).toEqual(['formats.unreadable']);
  });

  it('compares the viewport of every page', () => {
    const wrong = project('social', {}, viewport('width=device-width, initial-scale=1'));
    expect(wrong.violations).toEqual([
      expect.objectContaining({
        code: 'canvas.viewport',
        line: 5,
        expected: { width: 1080, height: 1080 },
        actual: { width: null, height: null },
      }),
    ]);
    expect(project('social', {}, viewport(' WIDTH = 1080 ; height=1080')).checks.canvas).toBe(
      'passed',
    );
    expect(project('social', {}, '').violations).toEqual([
      expect.objectContaining({ code: 'canvas.viewport_missing' }),
    ]);
    // Of two declarations, a browser applies the last.
    const right = viewport('width=1080, height=1080');
    const other = viewport('width=1, height=1');
    expect(project('social', {}, right + other).violations).toEqual([
      expect.objectContaining({ code: 'canvas.viewport', actual: { width: 1, height: 1 } }),
    ]);
    expect(project('social', {}, other + right).checks.canvas).toBe('passed');
  });

  it('does not apply to the web medium', () => {
    const report = project('web', { 'canvas/a.png': png(1, 1) }, '');
    expect(report.checks.canvas).toBe('passed');
  });

  it('parses viewport sizes', () => {
    expect(viewportSize('width=300,height=250')).toEqual({ width: 300, height: 250 });
    expect(viewportSize('width=300.5, height=abc')).toEqual({ width: null, height: null });
  });
});
