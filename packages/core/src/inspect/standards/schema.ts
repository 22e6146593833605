import type { Violation } from '../../report/violation.js';
import { violation } from '../../report/codes.js';
import { formatOfPath } from '../../media/catalog.js';
import { validateJson } from '../../schemas/validate.js';
import type { AssetContext, StandardFindings } from '../asset.js';

/**
 * `schema`: every JSON file that has a schema (production.json always; data files must) matches
 * it. An unknown schema URI is a violation; JSON that does not parse is the formats standard's
 * finding and leaves this one unchecked.
 */
export function inspectSchema(asset: AssetContext): StandardFindings {
  const violations: Violation[] = [];
  const schemas: Record<string, string> = {};
  let unusable = false;
  for (const path of asset.paths) {
    if (formatOfPath(path) !== 'json') continue;
    const uri = asset.schemaOf(path);
    if (uri === undefined) {
      if (asset.kind === 'data') violations.push(violation('schema.missing', { path }));
      continue;
    }
    schemas[path] = uri;
    const read = asset.json(path);
    if (!read.ok) {
      unusable = true;
      continue;
    }
    const result = validateJson(uri, read.value);
    if (result === undefined) violations.push(violation('schema.unknown', { path, actual: uri }));
    else if (!result.ok)
      for (const error of result.errors)
        violations.push(
          violation('schema.invalid', {
            path,
            message: `${error.path || '/'} ${error.message}`,
            expected: uri,
            actual: error.path,
          }),
        );
  }
  return { target: null, violations, unusable, details: { schemas } };
}
