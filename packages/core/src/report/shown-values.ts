import type { Violation } from './violation.js';

/**
 * The typed values of a violation worth showing beside its message (CLI, screen): both, or,
 * when they read the same (a missing file's reference as written and as resolved), the value
 * once, as what was found: it is often the one fact that tells which file is meant.
 */
export function shownValues(v: Violation): Pick<Violation, 'expected' | 'actual'> {
  const same = v.expected !== undefined && JSON.stringify(v.expected) === JSON.stringify(v.actual);
  return { expected: same ? undefined : v.expected, actual: v.actual };
}
