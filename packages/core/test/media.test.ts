import { describe, expect, it } from 'vitest';
import { findMedium, formatOfPath, mediaCatalog } from '@galley/core';

describe('media catalog', () => {
  it('has the six media of decisions §4 with their canvases', () => {
    expect(mediaCatalog.map((m) => [m.id, m.canvas?.width, m.canvas?.height])).toEqual([
      ['web', undefined, undefined],
      ['banner', 300, 250],
      ['leaderboard', 728, 90],
      ['signage', 1920, 1080],
      ['social', 1080, 1080],
      ['print-a4', 2480, 3508],
    ]);
  });
  it('finds a medium by id and version only', () => {
    expect(findMedium({ id: 'banner', version: 1 })?.label).toContain('300');
    expect(findMedium({ id: 'banner', version: 2 })).toBeUndefined();
  });
  it('maps extensions to formats', () => {
    expect(formatOfPath('a/b.JPG')).toBe('jpeg');
    expect(formatOfPath('a.htm')).toBe('html');
    expect(formatOfPath('dir.v2/readme')).toBeUndefined();
  });
});
