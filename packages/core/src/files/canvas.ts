import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import type { Size } from './dimensions.js';

export const canvasFolder = 'canvas/';

/** A canvas-sized image: its size compared with the canvas (v1 folders and v2 assets alike). */
export function imageCanvasViolation(
  path: string,
  canvas: Size,
  size: Size,
): Violation | undefined {
  if (size.width === canvas.width && size.height === canvas.height) return undefined;
  return violation('canvas.size', {
    path,
    expected: { width: canvas.width, height: canvas.height },
    actual: { width: size.width, height: size.height },
  });
}
