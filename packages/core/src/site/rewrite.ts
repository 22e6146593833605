import { cssUrlText } from './css.js';
import { dropAction, emptiedCssUrl, isInCss } from './drop.js';
import { applyEdits, attribute, type Edit } from './edits.js';
import type { UrlFate } from './fate.js';
import type { PageUrl, UrlHolder } from './html.js';
import { resolveUrl, urlBetween } from './urls.js';

/**
 * The edits that make a file's URLs right in the project: links to missing files unwrapped,
 * dropped loads taken out (`dropAction`; in CSS the URL emptied), references to moved files (or
 * from a moved file) rewritten in the style they were written.
 * `names` maps site paths to project paths; the file moves from site path `from` to `at`.
 * `rebased`: its URLs were resolved against a `<base href>`, which the conversion removes, so
 * each is rewritten unless it also means its target from the page itself.
 */
export function urlEdits(
  urls: readonly PageUrl[],
  fates: readonly (UrlFate | undefined)[],
  names: ReadonlyMap<string, string>,
  move: { readonly from: string; readonly at: string; readonly rebased?: boolean },
): Edit[] {
  const { from, at, rebased = false } = move;
  const edits: Edit[] = [];
  const rewritten: UrlRewrite[] = [];
  for (let i = 0; i < urls.length; i++) {
    const url = urls[i];
    const fate = fates[i];
    if (url === undefined || fate === undefined) continue;
    if (fate.kind === 'remove') {
      for (const span of url.removal) edits.push({ ...span, text: '' });
      continue;
    }
    if (fate.kind === 'drop') {
      const action = isInCss(url) ? undefined : dropAction(url, fate.reason);
      if (action === undefined) rewritten.push({ url, written: emptiedCssUrl });
      else edits.push({ ...action.span, text: action.text });
      continue;
    }
    const target = names.get(fate.path);
    if (target === undefined) continue;
    if (fate.exact && from === at && target === fate.path && !rebased) continue;
    if (stillResolves(url.url, at, target)) continue;
    rewritten.push({ url, written: urlBetween(at, target, fate) });
  }
  return [...edits, ...rewriteEdits(rewritten, edits)];
}

/** A URL of a file written anew (`written`, not yet escaped for where it stands). */
export interface UrlRewrite {
  readonly url: PageUrl;
  readonly written: string;
}

/**
 * The edits that write URLs anew where they stand: in CSS escaped as CSS, in an attribute the
 * whole attribute re-escaped with every rewritten URL of its value. An attribute that `taken`
 * already removes or replaces is left to it.
 */
export function rewriteEdits(rewrites: readonly UrlRewrite[], taken: readonly Edit[] = []): Edit[] {
  const edits: Edit[] = [];
  const byAttribute = new Map<UrlHolder, Edit[]>();
  for (const { url, written } of rewrites) {
    const text = isInCss(url) ? cssUrlText(written) : written;
    if (url.holder.kind === 'text') {
      const offset = url.holder.offset;
      edits.push({ start: offset + url.at.start, end: offset + url.at.end, text });
    } else {
      const inValue = byAttribute.get(url.holder) ?? [];
      inValue.push({ ...url.at, text });
      byAttribute.set(url.holder, inValue);
    }
  }
  for (const [holder, inValue] of byAttribute) {
    if (holder.kind !== 'attribute') continue;
    const { span } = holder;
    if (taken.some((edit) => edit.start <= span.start && span.end <= edit.end)) continue;
    edits.push({ ...span, text: attribute(holder.name, applyEdits(holder.value, inValue)) });
  }
  return edits;
}

/** True when the URL as written already means `target` from `at` in the project. */
function stillResolves(url: string, at: string, target: string): boolean {
  const resolved = resolveUrl(url, at);
  if (resolved.kind !== 'local' || resolved.path === undefined) return false;
  const path = resolved.folder
    ? `${resolved.path === '' ? '' : `${resolved.path}/`}index.html`
    : resolved.path;
  return path === target;
}
