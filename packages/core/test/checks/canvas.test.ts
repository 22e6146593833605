import { describe, expect, it } from 'vitest';
import { checkFolder, viewportSize } from '@galley/core';
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

  it('is unchecked, with a warning, when an image has no size to compare', () => {
    const report = project('social', {
      'canvas/a.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
    expect(report.checks.canvas).toBe('unchecked');
    expect(report.violations).toEqual([
      expect.objectContaining({ code: 'canvas.size_unknown', severity: 'warning' }),
    ]);
    // A warning never fails the check, but an error beside it does.
    const both = project('social', {
      'canvas/a.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'canvas/b.png': png(1, 1),
    });
    expect(both.checks.canvas).toBe('failed');
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
