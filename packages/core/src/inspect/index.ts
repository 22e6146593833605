export { inspect, inspectContents, type InspectInput } from './inspect.js';
export { addFacts, knownFacts, type ContentFacts, type KnownFacts } from './content-facts.js';
export { pathRecord } from './path-record.js';
export { validateAssetInput, validateAssetPaths } from './validate-input.js';
export type { AssetInput } from './asset.js';
export {
  AssetKind,
  AssetInputError,
  Inspection,
  InspectionCheck,
  InspectionStandard,
  InspectionSummary,
  InspectionViolation,
  JudgedMedium,
} from './inspection.js';
