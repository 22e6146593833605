// What a report shows beside a violation's message: its typed values, once when they read the same.
import { describe, expect, it } from 'vitest';
import { shownValues } from '../src/index.js';
import type { Violation } from '../src/index.js';

const violation = (values: Pick<Violation, 'expected' | 'actual'>): Violation => ({
  check: 'links',
  code: 'links.missing',
  severity: 'error',
  path: 'index.html',
  message: 'A link points to a file that is not in the folder.',
  ...values,
});

describe('shownValues', () => {
  it('keeps a pair that differs, and either side alone', () => {
    const size = { expected: { width: 300, height: 250 }, actual: { width: 1, height: 2 } };
    expect(shownValues(violation(size))).toEqual(size);
    expect(shownValues(violation({ actual: 214 }))).toEqual({ expected: undefined, actual: 214 });
  });

  it('shows a pair that reads the same on both sides once, as found', () => {
    expect(shownValues(violation({ expected: 'pic.png', actual: 'pic.png' }))).toEqual({
      expected: undefined,
      actual: 'pic.png',
    });
    const same = { expected: { width: 1, height: 1 }, actual: { width: 1, height: 1 } };
    expect(shownValues(violation(same))).toEqual({ expected: undefined, actual: same.actual });
  });
});
