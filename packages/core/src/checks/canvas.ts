import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import type { Size } from '../files/dimensions.js';
import { canvasFolder, imageCanvasViolation } from '../files/canvas.js';
import type { FolderCheck, FolderContext } from './context.js';

/** `width=300, height=250` → its integer sides (null where absent or not a whole number). */
export function viewportSize(content: string): { width: number | null; height: number | null } {
  const entries = new Map(
    content
      .split(/[,;]/)
      .map((part) => part.split('=').map((s) => s.trim().toLowerCase()))
      .map(([key = '', value = '']) => [key, value] as const),
  );
  const side = (key: string) => {
    const value = entries.get(key);
    return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
  };
  return { width: side('width'), height: side('height') };
}

function pageViewportViolation(context: FolderContext, path: string, canvas: Size) {
  const page = context.page(path);
  if (page === undefined) return undefined; // missing or unparsable: the pages check says so
  const { viewport } = page;
  if (viewport === undefined) return violation('canvas.viewport_missing', { path });
  const actual = viewportSize(viewport.content);
  if (actual.width === canvas.width && actual.height === canvas.height) return undefined;
  const place = page.placeOf(viewport.node);
  return violation('canvas.viewport', { path, ...place, expected: { ...canvas }, actual });
}

/**
 * `canvas` (media with a canvas only): every image under `canvas/` has the canvas's size and
 * every listed page declares it as its viewport. An image with no intrinsic size (an SVG
 * without width and height, or a viewBox, to read them from) cannot match the canvas: it fails
 * with `canvas.size_unknown`. A damaged image fails `formats` (`formats.unreadable`); with
 * nothing to compare, it leaves this check unchecked.
 */
export const canvasCheck: FolderCheck = {
  name: 'canvas',
  run(context) {
    if (!context.project.usable) return { violations: [], unusable: true };
    const { canvas } = context.project.medium;
    if (canvas === undefined) return { violations: [] };
    const violations: Violation[] = [];
    let unusable = false;
    for (const path of context.paths) {
      if (!path.startsWith(canvasFolder)) continue;
      const dimensions = context.dimensions(path);
      if (dimensions === undefined) continue; // not an image
      if (dimensions.status === 'unreadable') unusable = true; // formats.unreadable says why
      const problem =
        dimensions.status === 'read'
          ? imageCanvasViolation(path, canvas, dimensions.size)
          : dimensions.status === 'unsized'
            ? violation('canvas.size_unknown', { path })
            : undefined;
      if (problem) violations.push(problem);
    }
    for (const { file } of context.project.project.pages) {
      const problem = pageViewportViolation(context, file, canvas);
      if (problem) violations.push(problem);
    }
    return { violations, unusable };
  },
};
