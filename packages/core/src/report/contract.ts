import type { Violation } from './violation.js';

/** The checks of a folder report (decisions §4) plus `site` for plain-site conversion. */
export const checkNames = [
  'archive',
  'limits',
  'names',
  'project',
  'formats',
  'pages',
  'links',
  'canvas',
] as const;

export const contracts = { 'media-contract': '1.0', 'svc-contract': '1.0' } as const;

/** Deterministic order (path, code, line) so equal folders give byte-equal reports. */
export function compareViolations(a: Violation, b: Violation): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}
