import { describe, expect, it } from 'vitest';
import { TestClock } from '@galley/store';
import { loadConfig } from '@galley/server';
import { PreviewPasses } from '../../src/screen/preview.js';

describe('preview passes', () => {
  const secret = 'a-shared-secret-of-at-least-32-characters';

  it('with GALLEY_PREVIEW_SECRET, a pass from one process is accepted by another', () => {
    const clock = new TestClock();
    const pass = new PreviewPasses(clock, 60, secret).issue(1001, 'prj_a');
    expect(new PreviewPasses(clock, 60, secret).accountOf(pass, 'prj_a')).toBe(1001);
    expect(new PreviewPasses(clock, 60, secret).accountOf(pass, 'prj_b')).toBeNull();
    expect(new PreviewPasses(clock, 60).accountOf(pass, 'prj_a')).toBeNull();
    clock.advanceSeconds(61);
    expect(new PreviewPasses(clock, 60, secret).accountOf(pass, 'prj_a')).toBeNull();
  });

  it('reads the secret from the environment and refuses a short one', () => {
    expect(loadConfig({ GALLEY_PREVIEW_SECRET: secret }).previewSecret).toBe(secret);
    expect(loadConfig({}).previewSecret).toBeNull();
    expect(() => loadConfig({ GALLEY_PREVIEW_SECRET: 'short' })).toThrow(/GALLEY_PREVIEW_SECRET/);
  });
});
