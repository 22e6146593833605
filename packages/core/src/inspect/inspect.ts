import { contracts, type CheckOutcome, type Violation } from '../report/violation.js';
import { mediaCatalog } from '../media/catalog.js';
import type { Medium } from '../media/schema.js';
import {
  createAssetContext,
  type AssetContext,
  type AssetInput,
  type StandardFindings,
} from './asset.js';
import type {
  Inspection,
  InspectionCheck,
  InspectionStandard,
  InspectionViolation,
  JudgedMedium,
} from './inspection.js';
import { inspectNames } from './standards/names.js';
import { inspectFormats } from './standards/formats.js';
import { inspectCanvas } from './standards/canvas.js';
import { inspectSchema } from './standards/schema.js';
import { orderViolations } from '../report/contract.js';
import type { KnownFacts } from './content-facts.js';

/** The standards of an inspection, in report order, with the contract each belongs to. */
const standards: readonly {
  readonly standard: InspectionStandard;
  readonly contract: keyof typeof contracts;
  readonly run: (asset: AssetContext) => StandardFindings;
}[] = [
  { standard: 'names', contract: 'svc-contract', run: inspectNames },
  { standard: 'formats', contract: 'svc-contract', run: inspectFormats },
  { standard: 'canvas', contract: 'media-contract', run: inspectCanvas },
  { standard: 'schema', contract: 'svc-contract', run: inspectSchema },
];

export interface InspectInput extends AssetInput {
  /** The inspection time, ISO 8601 with offset (the caller's clock). */
  readonly now: string;
}

/** Runs every standard once (validateAssetInput shares the findings). */
export function runStandards(asset: AssetContext) {
  return standards.map((s) => ({ ...s, findings: s.run(asset) }));
}

/** A folder-check violation as an inspection shows it: `expected`/`actual` null when absent. */
export function assetViolation(v: Violation): InspectionViolation {
  return {
    code: v.code,
    path: v.path,
    message: v.message,
    expected: v.expected ?? null,
    actual: v.actual ?? null,
  };
}

function verdictOf(findings: StandardFindings): CheckOutcome {
  if (findings.violations.some((v) => v.severity === 'error')) return 'failed';
  return findings.unusable ? 'unchecked' : 'passed';
}

const judged = (medium: Medium, basis: JudgedMedium['basis']): JudgedMedium => ({
  id: medium.id,
  version: medium.version,
  label: medium.label,
  type: medium.type,
  basis,
});

/** A production's declared medium; for an image, every medium whose canvas is its size. */
function judgeMedia(asset: AssetContext): JudgedMedium[] {
  if (asset.kind === 'production') return asset.medium ? [judged(asset.medium, 'declared')] : [];
  if (asset.kind !== 'image' || asset.paths.length !== 1) return [];
  const dimensions = asset.dimensions(asset.paths[0]!);
  if (dimensions?.status !== 'read') return [];
  const { width, height } = dimensions.size;
  return mediaCatalog
    .filter((m) => m.canvas?.width === width && m.canvas.height === height)
    .map((m) => judged(m, 'canvas'));
}

/**
 * Inspects an asset revision (asset-api-v2 Inspection, decisions §6 and §8): standards names,
 * formats, canvas and schema; verdict failed if any failed, else unchecked if any could not
 * run, else passed. Pure: the time comes from the caller.
 */
export function inspect(input: InspectInput): Inspection {
  return inspectContents(input).inspection;
}

/**
 * `inspect`, and the facts of the contents it read that `input.known` did not hold, for the
 * caller to give as `known` to later inspections of the same contents.
 */
export function inspectContents(input: InspectInput): {
  inspection: Inspection;
  learned: KnownFacts;
} {
  const asset = createAssetContext(input);
  const checks: InspectionCheck[] = runStandards(asset).map(({ standard, contract, findings }) => ({
    standard,
    contract,
    version: contracts[contract],
    target: findings.target,
    verdict: verdictOf(findings),
    violations: orderViolations(findings.violations)
      .filter((v) => v.severity === 'error')
      .map(assetViolation),
    details: findings.details,
  }));
  const verdicts = new Set(checks.map((c) => c.verdict));
  const verdict = verdicts.has('failed')
    ? 'failed'
    : verdicts.has('unchecked')
      ? 'unchecked'
      : 'passed';
  const inspection: Inspection = {
    verdict,
    media: judgeMedia(asset),
    checks,
    contracts: { ...contracts },
    inspected_at: input.now,
  };
  return { inspection, learned: asset.learned };
}
