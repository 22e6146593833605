import { z } from 'zod';

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
export const CheckName = z.enum([...checkNames, 'site', 'schema']);
export type CheckName = z.infer<typeof CheckName>;

export const CheckOutcome = z.enum(['passed', 'failed', 'unchecked']);
export type CheckOutcome = z.infer<typeof CheckOutcome>;

export const Severity = z.enum(['error', 'warning']);
export type Severity = z.infer<typeof Severity>;

/** One diagnostic shape everywhere: server, CLI and browser print exactly this JSON. */
export const Violation = z.object({
  check: CheckName,
  code: z.string(),
  severity: Severity,
  path: z.string(),
  element: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  message: z.string(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
  suggestion: z.string().optional(),
});
export type Violation = z.infer<typeof Violation>;

export const contracts = { 'media-contract': '1.0', 'svc-contract': '1.0' } as const;
export const Contracts = z.object({ 'media-contract': z.string(), 'svc-contract': z.string() });

export const CheckReport = z.object({
  checks: z.partialRecord(CheckName, CheckOutcome),
  violations: z.array(Violation),
  contracts: Contracts,
});
export type CheckReport = z.infer<typeof CheckReport>;

/** Deterministic order (path, code, line) so equal folders give byte-equal reports. */
export function compareViolations(a: Violation, b: Violation): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}
