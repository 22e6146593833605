import { z } from 'zod';
import { CheckOutcome, Contracts } from '../report/violation.js';
import { Medium } from '../media/schema.js';

/** Asset kinds (decisions §6). */
export const AssetKind = z.enum(['image', 'font', 'production', 'data']);
export type AssetKind = z.infer<typeof AssetKind>;

export const InspectionStandard = z.enum(['names', 'formats', 'canvas', 'schema']);
export type InspectionStandard = z.infer<typeof InspectionStandard>;

/** An inspection violation (asset-api-v2): `expected`/`actual` are typed values, or null. */
export const InspectionViolation = z.object({
  code: z.string(),
  path: z.string(),
  message: z.string(),
  expected: z.unknown(),
  actual: z.unknown(),
});
export type InspectionViolation = z.infer<typeof InspectionViolation>;

/** One standard's result; `target` is a path or folder, or null for the whole asset. */
export const InspectionCheck = z.object({
  standard: InspectionStandard,
  contract: z.string(),
  version: z.string(),
  target: z.string().nullable(),
  verdict: CheckOutcome,
  violations: z.array(InspectionViolation),
  details: z.record(z.string(), z.unknown()),
});
export type InspectionCheck = z.infer<typeof InspectionCheck>;

/** A medium the asset is judged fit for, and on what grounds. */
export const JudgedMedium = z.object({
  id: z.string(),
  version: z.number().int(),
  label: z.string(),
  type: Medium.shape.type,
  basis: z.enum(['declared', 'canvas']),
});
export type JudgedMedium = z.infer<typeof JudgedMedium>;

export const Inspection = z.object({
  verdict: CheckOutcome,
  media: z.array(JudgedMedium),
  checks: z.array(InspectionCheck),
  contracts: Contracts,
  inspected_at: z.string(),
});
export type Inspection = z.infer<typeof Inspection>;

/** Inspection as asset and revision lists show it. */
export const InspectionSummary = Inspection.pick({ verdict: true, media: true });
export type InspectionSummary = z.infer<typeof InspectionSummary>;

/**
 * One reason v2 input is invalid (the 422's `violations`): an inspection violation, the same
 * shape `{code, path, message, expected, actual}` as in an inspection.
 */
export const AssetInputError = InspectionViolation;
export type AssetInputError = z.infer<typeof AssetInputError>;
