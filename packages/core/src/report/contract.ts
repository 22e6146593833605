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

/**
 * What the order reads of a violation, spelled out rather than taken from the schema: violation.ts
 * imports this module, and the folder checks order their findings without loading zod.
 */
export interface Ordered {
  readonly path: string;
  readonly code: string;
  readonly line?: number;
  readonly column?: number;
}

/** Deterministic order (path, code, line) so equal folders give byte-equal reports. */
export function compareViolations(a: Ordered, b: Ordered): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

/** Deterministic order (path, code, line, column, then the whole record), duplicates dropped. */
export function orderViolations<V extends Ordered>(violations: readonly V[]): V[] {
  const keyed = new Map(violations.map((v) => [JSON.stringify(v), v] as const));
  return [...keyed]
    .sort(
      ([keyA, a], [keyB, b]) => compareViolations(a, b) || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0),
    )
    .map(([, v]) => v);
}
