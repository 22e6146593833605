import { attribute, escapeText } from './edits.js';
import type { UrlFate } from './fate.js';
import type { PageUrl, Span } from './html.js';
import { siteWarning } from './page.js';
import type { SiteWarning } from './report.js';

/** Elements that embed another page: dropped, they leave a link to it (`site.embed_linked`). */
const embeds: ReadonlySet<string> = new Set(['iframe', 'frame', 'object', 'embed']);

/** True for a URL an embed loads (not one in its `style`): another page, which no file replaces. */
export function isEmbedLoad(url: PageUrl): boolean {
  return embeds.has(url.element) && !isInCss(url);
}

/** What a URL in CSS becomes when its load is dropped: loads nothing, checks nothing. */
export const emptiedCssUrl = 'data:,';

/** Attributes whose element stays when their load goes: the image or poster is only extra. */
function isExtraLoad(element: string, name: string): boolean {
  return name === 'poster' || name === 'background' || (name === 'srcset' && element === 'img');
}

/** A dropped URL held in CSS (a style sheet, `<style>`, a `style` attribute) is emptied instead. */
export function isInCss(url: PageUrl): boolean {
  return url.holder.kind === 'text' || url.holder.name === 'style';
}

export type DropAction =
  /** Replace `span` (the whole element, or its attribute) with `text`. */
  { readonly span: Span; readonly text: string; readonly attribute: boolean };

/**
 * How a page takes out a load it cannot have (never called for URLs in CSS: see `isInCss`): an
 * embed from another origin becomes a link to what it showed; a poster, `background` or an
 * `<img srcset>` loses its attribute (the element still shows); any other element goes whole.
 */
export function dropAction(url: PageUrl, reason: DropReason): DropAction | undefined {
  const { owner, holder } = url;
  if (owner === undefined || holder.kind !== 'attribute') return undefined;
  if (isExtraLoad(url.element, holder.name))
    return { span: holder.span, text: '', attribute: true };
  const text =
    reason === 'external' && isEmbedLoad(url)
      ? `<a ${attribute('href', url.url.trim())}>${escapeText(url.url.trim())}</a>`
      : '';
  return { span: owner.whole, text, attribute: false };
}

type DropReason = Extract<UrlFate, { kind: 'drop' }>['reason'];

/** The warning for one dropped load of the file at input path `path`. */
export function dropWarning(path: string, url: PageUrl, reason: DropReason): SiteWarning {
  const code =
    reason === 'missing'
      ? 'site.missing_dropped'
      : isEmbedLoad(url)
        ? 'site.embed_linked'
        : 'site.external_dropped';
  return siteWarning(code, path, url.url, url.element);
}
