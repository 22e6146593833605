import { orderViolations } from '../report/contract.js';
import { nameViolations } from '../files/names.js';
import { createAssetContext, type AssetInput } from './asset.js';
import type { AssetInputError } from './inspection.js';
import { assetViolation, runStandards } from './inspect.js';

/**
 * Fit but unfit is not invalid: an image of the wrong size is stored and fails inspection.
 * These codes are the only inspection findings that do not make input invalid.
 */
const storedAnyway = new Set(['canvas.size']);

/**
 * Why v2 input is invalid (decisions §8: 422 with `errors`, nothing stored): paths breaking the
 * naming rules or a production's layout, files of a type the kind does not take or whose content
 * is not what they say, JSON failing its schema or naming an unknown one, images beyond the
 * bounds, active SVG, an unknown medium. Empty when the input may be stored.
 */
export function validateAssetInput(input: AssetInput): AssetInputError[] {
  const found = runStandards(createAssetContext(input)).flatMap((s) => s.findings.violations);
  return orderViolations(found)
    .filter((v) => v.severity === 'error' && !storedAnyway.has(v.code))
    .map(assetViolation);
}

/**
 * The naming rules each path breaks on its own (a `..` segment, a character outside the allowed
 * set, …): what no revision could hold, so it is invalid whichever base a change is sent on,
 * even one that cannot be read. Empty when every path is a valid name.
 */
export function validateAssetPaths(paths: readonly string[]): AssetInputError[] {
  return orderViolations(paths.flatMap((path) => nameViolations([path])))
    .filter((v) => v.severity === 'error')
    .map(assetViolation);
}
