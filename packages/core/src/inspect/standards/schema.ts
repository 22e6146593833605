import type { Violation } from '../../report/violation.js';
import { violation } from '../../report/codes.js';
import { formatOfPath } from '../../media/catalog.js';
import { validateJson } from '../../schemas/validate.js';
import type { AssetContext, StandardFindings } from '../asset.js';
import { pathRecord } from '../path-record.js';

function schemaViolations(path: string, uri: string, value: unknown): Violation[] {
  const result = validateJson(uri, value);
  if (result === undefined) return [violation('schema.unknown', { path, actual: uri })];
  if (result.ok) return [];
  return result.errors.map((error) =>
    violation('schema.invalid', {
      path,
      message: `${error.path || '/'} ${error.message}`,
      expected: uri,
      actual: error.path,
    }),
  );
}

/**
 * `schema`: every JSON file that has a schema (production.json always; data files must) matches
 * it; production.json naming another schema must match both, and `details.schemas` shows the
 * named one. An unknown schema URI is a violation; JSON that does not parse is the formats
 * standard's finding and leaves this one unchecked.
 */
export function inspectSchema(asset: AssetContext): StandardFindings {
  const violations: Violation[] = [];
  const schemas = pathRecord<string>();
  let unusable = false;
  for (const path of asset.paths) {
    if (formatOfPath(path) !== 'json') continue;
    const uris = asset.schemasOf(path);
    if (uris.length === 0) {
      if (asset.kind === 'data') violations.push(violation('schema.missing', { path }));
      continue;
    }
    schemas[path] = uris[0]!;
    const read = asset.json(path);
    if (!read.ok) {
      unusable = true;
      continue;
    }
    for (const uri of uris) violations.push(...schemaViolations(path, uri, read.value));
  }
  return { target: null, violations, unusable, details: { schemas } };
}
