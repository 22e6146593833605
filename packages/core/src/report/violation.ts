import { z } from 'zod';
import type { ViolationCode } from '../codes.js';
import { checkNames } from './contract.js';

// The constants and the order live in contract.ts, which the folder checks import: checking a
// folder never loads zod (the CLI starts faster). Re-exported here for everyone else.
export { checkNames, compareViolations, contracts, orderViolations } from './contract.js';

export const CheckName = z.enum([...checkNames, 'site', 'schema']);
export type CheckName = z.infer<typeof CheckName>;

export const CheckOutcome = z.enum(['passed', 'failed', 'unchecked']);
export type CheckOutcome = z.infer<typeof CheckOutcome>;

export const Severity = z.enum(['error', 'warning']);
export type Severity = z.infer<typeof Severity>;

/**
 * A code of the catalog, yet read as any string: a report from a newer service may carry a code
 * this build does not know, and the API description keeps `code` a plain string.
 */
const Code = z.string() as z.ZodType<string> as z.ZodType<ViolationCode, string>;

/** One diagnostic shape everywhere: server, CLI and browser print exactly this JSON. */
export const Violation = z.object({
  check: CheckName,
  code: Code,
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

export const Contracts = z.object({ 'media-contract': z.string(), 'svc-contract': z.string() });

export const CheckReport = z.object({
  checks: z.partialRecord(CheckName, CheckOutcome),
  violations: z.array(Violation),
  contracts: Contracts,
});
export type CheckReport = z.infer<typeof CheckReport>;
