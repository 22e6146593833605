import type { Violation } from '../report/violation.js';
import { violation } from '../report/codes.js';
import { formatOfPath } from '../media/catalog.js';
import type { FolderContext, FolderCheck } from './context.js';
import { directoryOf, findTarget, isRelativeReference, resolveReference } from '../html/resolve.js';
import { positionFinder, type PageFacts, type Place } from '../html/page.js';

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
  message?: string,
): ((place: Place) => Violation) | undefined {
  switch (judgement.kind) {
    case 'fine':
      return undefined;
    case 'external': {
      const text = message === undefined ? {} : { message };
      return loads
        ? (place) => violation('links.external', { path, ...place, actual: url, ...text })
        : undefined;
    }
    case 'outside':
      return (place) => violation('links.outside', { path, ...place, actual: url });
    case 'missing': {
      const expected = judgement.target === undefined ? {} : { expected: judgement.target };
      return (place) => violation('links.missing', { path, ...place, actual: url, ...expected });
    }
  }
}

/**
 * How a page's `<base href>` changes its relative URLs: not at all, to another origin, or to
 * a folder path (a file path whose directory they are resolved in).
 */
type Base =
  | { readonly kind: 'none' }
  | { readonly kind: 'external'; readonly href: string }
  | { readonly kind: 'local'; readonly from: string };

/**
 * Reads a page's base, with the violation of a base that leaves the folder or cannot be read
 * (then relative URLs are judged from the page itself). A base that is empty, a fragment or a
 * query alone, or of a scheme without a path (`data:`, `javascript:`…, which browsers ignore or
 * cannot resolve against) changes nothing.
 */
function baseOf(page: PageFacts, path: string): { base: Base; problem?: Violation } {
  if (page.base === undefined) return { base: { kind: 'none' } };
  const { href, node } = page.base;
  const resolved = resolveReference(href, path);
  switch (resolved.kind) {
    case 'none':
      return { base: { kind: 'none' } };
    case 'external':
      return { base: { kind: 'external', href } };
    case 'local':
      return { base: { kind: 'local', from: resolved.path } };
    case 'outside':
    case 'malformed': {
      const code = resolved.kind === 'outside' ? 'links.outside' : 'links.missing';
      const problem = violation(code, { path, ...page.placeOf(node), actual: href });
      return { base: { kind: 'none' }, problem };
    }
  }
}

/**
 * A page's references, relative ones resolved against its `<base href>` as a browser does:
 * against an external base every relative resource is loaded from that origin (`links.external`;
 * links to it stay fine), against a local one from its folder.
 */
function pageViolations(
  context: FolderContext,
  judge: ReturnType<typeof referenceJudge>,
  path: string,
) {
  const page = context.page(path);
  if (page === undefined) return []; // not UTF-8: formats and pages report it
  const { base, problem } = baseOf(page, path);
  const found: Violation[] = problem === undefined ? [] : [problem];
  const from = base.kind === 'local' ? base.from : path;
  for (const ref of page.references) {
    let judgement: Judgement;
    let message: string | undefined;
    if (base.kind === 'external' && isRelativeReference(ref.url)) {
      judgement = { kind: 'external' };
      message = `The page loads ${ref.url} from another origin: its <base href="${base.href}"> resolves relative URLs there.`;
    } else judgement = judge(from, ref.url);
    const violationAt = referenceViolation(judgement, ref.loads, path, ref.url, message);
    if (violationAt) found.push(violationAt(page.placeOf(ref.node, ref.offset)));
  }
  return found;
}

function styleSheetViolations(
  context: FolderContext,
  judge: ReturnType<typeof referenceJudge>,
  path: string,
) {
  const text = context.text(path);
  const references = context.styleSheet(path);
  if (text === undefined || references === undefined) return [];
  const found: Violation[] = [];
  const positionAt = positionFinder(text);
  for (const ref of references) {
    const problem = referenceViolation(judge(path, ref.url), true, path, ref.url);
    if (problem) found.push(problem(positionAt(ref.offset)));
  }
  return found;
}

/**
 * `links`: every local `href`, `src`, `srcset`, CSS `url()` and `@import` of every HTML and CSS
 * file resolves inside the folder, and nothing is loaded from another origin (following an
 * external `<a href>` is fine). The other attributes that load count as these do (an SVG `href`
 * with any prefix, legacy `background`, `<link imagesrcset>`: `html/references.ts`).
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
