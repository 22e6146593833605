import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import { formatOfPath } from '../media/catalog.js';
import type { FolderContext, FolderCheck } from './context.js';
import { cssReferences } from './html/css.js';
import { directoryOf, findTarget, resolveReference } from './html/resolve.js';
import { positionFinder, type Place } from './html/page.js';

/** What a reference comes to, whoever writes it from the same folder. */
type Judgement =
  | { readonly kind: 'fine' | 'external' | 'outside' }
  | { readonly kind: 'missing'; readonly target?: string };

/**
 * Judges references, remembering each (folder, URL) pair: pages of a site repeat the same
 * references (a shared style sheet, a logo, the menu) many times over.
 */
function referenceJudge(context: FolderContext): (from: string, url: string) => Judgement {
  const memo = new Map<string, Judgement>();
  return (from, url) => {
    const key = `${directoryOf(from)}\n${url}`;
    let judgement = memo.get(key);
    if (judgement === undefined) {
      const resolved = resolveReference(url, from);
      if (resolved.kind === 'none') judgement = { kind: 'fine' };
      else if (resolved.kind === 'malformed') judgement = { kind: 'missing' };
      else if (resolved.kind !== 'local') judgement = { kind: resolved.kind };
      else if (findTarget(context.folder, resolved.path) !== undefined)
        judgement = { kind: 'fine' };
      else judgement = { kind: 'missing', target: resolved.path };
      memo.set(key, judgement);
    }
    return judgement;
  };
}

/** The violation for a judged reference; external ones only when the browser loads them. */
function referenceViolation(
  judgement: Judgement,
  loads: boolean,
  path: string,
  url: string,
): ((place: Place) => Violation) | undefined {
  switch (judgement.kind) {
    case 'fine':
      return undefined;
    case 'external':
      return loads
        ? (place) => violation('links.external', { path, ...place, actual: url })
        : undefined;
    case 'outside':
      return (place) => violation('links.outside', { path, ...place, actual: url });
    case 'missing': {
      const expected = judgement.target === undefined ? {} : { expected: judgement.target };
      return (place) => violation('links.missing', { path, ...place, actual: url, ...expected });
    }
  }
}

function pageViolations(
  context: FolderContext,
  judge: ReturnType<typeof referenceJudge>,
  path: string,
) {
  const page = context.page(path);
  if (page === undefined) return []; // not UTF-8: formats and pages report it
  const found: Violation[] = [];
  for (const ref of page.references) {
    const problem = referenceViolation(judge(path, ref.url), ref.loads, path, ref.url);
    if (problem) found.push(problem(page.placeOf(ref.node, ref.offset)));
  }
  return found;
}

function styleSheetViolations(
  context: FolderContext,
  judge: ReturnType<typeof referenceJudge>,
  path: string,
) {
  const text = context.text(path);
  if (text === undefined) return [];
  const found: Violation[] = [];
  const positionAt = positionFinder(text);
  for (const ref of cssReferences(text)) {
    const problem = referenceViolation(judge(path, ref.url), true, path, ref.url);
    if (problem) found.push(problem(positionAt(ref.offset)));
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
    const judge = referenceJudge(context);
    const violations: Violation[] = [];
    for (const path of context.paths) {
      const format = formatOfPath(path);
      if (format === 'html') violations.push(...pageViolations(context, judge, path));
      else if (format === 'css') violations.push(...styleSheetViolations(context, judge, path));
    }
    return { violations };
  },
};
