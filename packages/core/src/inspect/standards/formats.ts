import type { Violation } from '../../report/violation.js';
import { violation } from '../../report/codes.js';
import { formatOfPath } from '../../media/catalog.js';
import { problemAt } from '../content-facts.js';
import { productionFile, type AssetContext, type StandardFindings } from '../asset.js';
import { pathRecord } from '../path-record.js';

const singleFile = new Set(['image', 'font']);

function countViolation(asset: AssetContext): Violation | undefined {
  const count = asset.paths.length;
  if (singleFile.has(asset.kind) && count !== 1)
    return violation('formats.file_count', { path: '', expected: 1, actual: count });
  if (asset.kind === 'data' && count === 0)
    return violation('formats.file_count', {
      path: '',
      message: 'A data asset holds at least one JSON file.',
      expected: 1,
      actual: 0,
    });
  if (asset.kind === 'production' && !asset.has(productionFile))
    return violation('formats.file_count', {
      path: productionFile,
      message: 'A production needs its production.json.',
      expected: productionFile,
      actual: null,
    });
  return undefined;
}

/**
 * `formats`: the kind's file count and types, then the folder rules for each file (content
 * matches the extension, UTF-8 text, images within bounds, SVG inert).
 */
export function inspectFormats(asset: AssetContext): StandardFindings {
  const violations: Violation[] = [];
  const count = countViolation(asset);
  if (count) violations.push(count);
  const formats = pathRecord<string | null>();
  for (const path of asset.paths) {
    const format = formatOfPath(path);
    formats[path] = format ?? null;
    const allowed = asset.allowedFormats(path);
    if (format === undefined || !allowed.has(format)) {
      violations.push(
        violation('formats.kind', { path, expected: [...allowed].sort(), actual: format ?? null }),
      );
      continue;
    }
    const problem = problemAt(asset.facts(path)!, path);
    if (problem) violations.push(problem);
  }
  return { target: null, violations, details: { formats } };
}
