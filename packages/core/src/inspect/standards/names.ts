import { violation } from '../../report/codes.js';
import { nameViolations } from '../../files/names.js';
import {
  productionFile,
  productionFolders,
  type AssetContext,
  type StandardFindings,
} from '../asset.js';

/** `names`: the folder naming rules for every path; a production's layout besides. */
export function inspectNames(asset: AssetContext): StandardFindings {
  const violations = nameViolations(asset.paths);
  if (asset.kind === 'production')
    for (const path of asset.paths)
      if (path !== productionFile && !productionFolders.some((folder) => path.startsWith(folder)))
        violations.push(violation('names.layout', { path }));
  return { target: null, violations, details: { files: asset.paths.length } };
}
