import { describe, expect, it } from 'vitest';
import { checkFolder, defaultFolderLimits } from '@galley/core';
import { webFolder } from './fixtures.js';

describe('limits check', () => {
  it('has the defaults of decisions §4', () => {
    expect(defaultFolderLimits).toEqual({
      maxEntries: 5000,
      maxFileBytes: 52_428_800,
      maxTotalBytes: 524_288_000,
    });
  });

  it('counts entries, bytes per file and bytes in all, against configured limits', () => {
    const folder = webFolder({ 'a.txt': 'x'.repeat(10), 'b.txt': 'x'.repeat(11) });
    const limits = { maxEntries: 3, maxFileBytes: 10, maxTotalBytes: 20 };
    const found = checkFolder(folder, { limits }).violations.filter((v) => v.check === 'limits');
    expect(found.map((v) => [v.path, v.code, v.expected, v.actual])).toEqual([
      ['', 'limits.entries', 3, 4],
      ['', 'limits.total_size', 20, expect.any(Number)],
      ['b.txt', 'limits.file_size', 10, 11],
      ['index.html', 'limits.file_size', 10, expect.any(Number)],
      ['project.json', 'limits.file_size', 10, expect.any(Number)],
    ]);
    expect(checkFolder(folder).checks.limits).toBe('passed');
  });
});
