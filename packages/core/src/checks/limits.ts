import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import type { FolderCheck } from './context.js';

/**
 * `limits` of the folder itself: entry count, bytes per file, bytes in all. The ZIP's own limits
 * (compressed size, ratio, declared sizes) are judged by readZip while it inflates.
 */
export const limitsCheck: FolderCheck = {
  name: 'limits',
  run({ folder, paths, limits }) {
    const violations: Violation[] = [];
    if (paths.length > limits.maxEntries)
      violations.push(
        violation('limits.entries', {
          path: '',
          expected: limits.maxEntries,
          actual: paths.length,
        }),
      );
    let total = 0;
    for (const path of paths) {
      const size = folder.get(path)!.length;
      total += size;
      if (size > limits.maxFileBytes)
        violations.push(
          violation('limits.file_size', { path, expected: limits.maxFileBytes, actual: size }),
        );
    }
    if (total > limits.maxTotalBytes)
      violations.push(
        violation('limits.total_size', { path: '', expected: limits.maxTotalBytes, actual: total }),
      );
    return { violations };
  },
};
