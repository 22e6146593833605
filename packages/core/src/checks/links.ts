import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import { formatOfPath } from '../media/catalog.js';
import type { FolderCheck, FolderContext } from './context.js';
import { cssReferences } from './html/css.js';
import { pageReferences } from './html/references.js';
import { findTarget, resolveReference } from './html/resolve.js';
import { positionFinder, type Place } from './html/page.js';

/** The finding for one reference, if any: external loads, and local ones that do not resolve. */
function referenceViolation(
  context: FolderContext,
  from: string,
  url: string,
  loads: boolean,
  place: () => Place,
): Violation | undefined {
  const resolved = resolveReference(url, from);
  const at = () => ({ path: from, ...place(), actual: url });
  switch (resolved.kind) {
    case 'none':
      return undefined;
    case 'external':
      return loads ? violation('links.external', at()) : undefined;
    case 'outside':
      return violation('links.outside', at());
    case 'malformed':
      return violation('links.missing', at());
    case 'local':
      return findTarget(context.folder, resolved.path) === undefined
        ? violation('links.missing', { ...at(), expected: resolved.path })
        : undefined;
  }
}

function pageViolations(context: FolderContext, path: string): Violation[] {
  const page = context.page(path);
  if (page === undefined) return []; // not UTF-8: formats and pages report it
  const found: Violation[] = [];
  for (const ref of pageReferences(page)) {
    const place = () => {
      const element = page.placeOf(ref.element);
      return { ...element, ...page.positionAt(ref.offset) };
    };
    const problem = referenceViolation(context, path, ref.url, ref.loads, place);
    if (problem) found.push(problem);
  }
  return found;
}

function styleSheetViolations(context: FolderContext, path: string): Violation[] {
  const text = context.text(path);
  if (text === undefined) return [];
  const found: Violation[] = [];
  const positionAt = positionFinder(text);
  for (const ref of cssReferences(text)) {
    const problem = referenceViolation(context, path, ref.url, true, () => positionAt(ref.offset));
    if (problem) found.push(problem);
  }
  return found;
}

/**
 * `links`: every local `href`, `src`, `srcset`, CSS `url()` and `@import` of every HTML and CSS
 * file resolves inside the folder, and nothing is loaded from another origin (following an
 * external `<a href>` is fine).
 */
export const linksCheck: FolderCheck = {
  name: 'links',
  run(context) {
    const violations: Violation[] = [];
    for (const path of context.paths) {
      const format = formatOfPath(path);
      if (format === 'html') violations.push(...pageViolations(context, path));
      else if (format === 'css') violations.push(...styleSheetViolations(context, path));
    }
    return { violations };
  },
};
