import type { Violation } from './violation.js';

/**
 * The typed values of a violation worth showing beside its message (CLI, screen): both, unless
 * they read the same (a missing file's reference as written and as resolved), which says nothing.
 */
export function shownValues(v: Violation): Pick<Violation, 'expected' | 'actual'> {
  const same = v.expected !== undefined && JSON.stringify(v.expected) === JSON.stringify(v.actual);
  return same ? {} : { expected: v.expected, actual: v.actual };
}
