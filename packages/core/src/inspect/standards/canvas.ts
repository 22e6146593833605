import type { Violation } from '../../report/violation.js';
import { violation } from '../../report/codes.js';
import { imageCanvasViolation, canvasFolder } from '../../files/canvas.js';
import type { Size } from '../../files/dimensions.js';
import type { AssetContext, StandardFindings } from '../asset.js';
import { pathRecord } from '../path-record.js';

/** The sizes of the images among `paths`; those that cannot be read are listed apart. */
function imageSizes(asset: AssetContext, paths: readonly string[]) {
  const sizes = new Map<string, Size>();
  const unreadable: string[] = [];
  for (const path of paths) {
    const dimensions = asset.dimensions(path);
    if (dimensions === undefined) continue; // not an image
    if (dimensions.status === 'read') sizes.set(path, dimensions.size);
    else unreadable.push(path);
  }
  return { sizes, unreadable };
}

/**
 * `canvas` (media-contract): an image asset's size is read (and compared with the given
 * medium's canvas, if any); a production's images under `canvas/` must equal its medium's
 * canvas. Unchecked when a size cannot be read.
 */
export function inspectCanvas(asset: AssetContext): StandardFindings {
  const violations: Violation[] = [];
  if (asset.mediumRef !== undefined && asset.medium === undefined)
    violations.push(
      violation('canvas.medium_unknown', { path: '', actual: { ...asset.mediumRef } }),
    );
  if (asset.kind !== 'image' && asset.kind !== 'production')
    return { target: null, violations, details: {} };

  const target = asset.kind === 'image' ? (asset.paths[0] ?? null) : canvasFolder;
  const inScope =
    asset.kind === 'image' ? asset.paths : asset.paths.filter((p) => p.startsWith(canvasFolder));
  const { sizes, unreadable } = imageSizes(asset, inScope);
  const canvas = asset.medium?.canvas;
  if (canvas)
    for (const [path, size] of sizes) {
      const problem = imageCanvasViolation(path, canvas, size);
      if (problem) violations.push(problem);
    }
  const sizesByPath = pathRecord<Size>();
  for (const [path, size] of sizes) sizesByPath[path] = size;
  const details = {
    ...(canvas ? { canvas: { ...canvas } } : {}),
    sizes: sizesByPath,
    ...(unreadable.length > 0 ? { unreadable } : {}),
  };
  // An image asset whose size could not be read at all leaves nothing judged.
  const unusable = unreadable.length > 0 || (asset.kind === 'image' && sizes.size === 0);
  return { target, violations, unusable, details };
}
