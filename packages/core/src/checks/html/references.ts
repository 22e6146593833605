import { cssReferences } from './css.js';

/** A URL written in a page, with whether the browser loads it (vs a link the reader follows). */
export interface PageReference {
  readonly url: string;
  readonly loads: boolean;
  /** The element's index in document order. */
  readonly node: number;
  /** Inside a `<style>` sheet: the url()'s offset in the page's text. */
  readonly offset?: number;
}

/** Attributes that make the browser fetch a resource, by element. */
const loadingAttributes: ReadonlyMap<string, readonly string[]> = new Map([
  ['script', ['src']],
  ['img', ['src', 'srcset']],
  ['source', ['src', 'srcset']],
  ['video', ['src', 'poster']],
  ['audio', ['src']],
  ['track', ['src']],
  ['iframe', ['src']],
  ['frame', ['src']],
  ['embed', ['src']],
  ['object', ['data']],
  ['input', ['src']],
  ['image', ['href', 'xlink:href']],
  ['use', ['href', 'xlink:href']],
  ['feimage', ['href', 'xlink:href']],
  ['feImage', ['href', 'xlink:href']],
]);
/**
 * `<link rel>` values that fetch their `href`; other rels (canonical, alternate…) only point.
 * preconnect and dns-prefetch fetch nothing but open a connection, so they count as loads too.
 * Plain-site conversion judges links with this same list.
 */
export const loadingRels: ReadonlySet<string> = new Set([
  'stylesheet',
  'icon',
  'shortcut',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'apple-touch-startup-image',
  'mask-icon',
  'fluid-icon',
  'manifest',
  'preload',
  'prefetch',
  'modulepreload',
  'preconnect',
  'dns-prefetch',
  'prerender',
]);

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const comma = 44;

/** The URLs of a `srcset`, parsed as the HTML standard does (URL, then descriptors to a comma). */
function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  const end = srcset.length;
  let at = 0;
  while (at < end) {
    while (at < end && (isSpace(srcset.charCodeAt(at)) || srcset.charCodeAt(at) === comma)) at++;
    const start = at;
    while (at < end && !isSpace(srcset.charCodeAt(at))) at++;
    if (at === start) break;
    const url = srcset.slice(start, at);
    if (url.endsWith(',')) {
      let last = url.length;
      while (last > 0 && url.charCodeAt(last - 1) === comma) last--;
      urls.push(url.slice(0, last));
      continue;
    }
    urls.push(url);
    let depth = 0; // descriptors end at a comma outside parentheses
    for (; at < end; at++) {
      const c = srcset.charCodeAt(at);
      if (c === 40) depth++;
      else if (c === 41) depth = Math.max(0, depth - 1);
      else if (c === comma && depth === 0) break;
    }
  }
  return urls;
}

function linkLoads(rel: string | undefined): boolean {
  if (rel === undefined) return false;
  for (const value of rel.toLowerCase().split(/\s+/)) if (loadingRels.has(value)) return true;
  return false;
}

/** The references in one element's attributes (its `style` attribute included), added to `out`. */
export function attributeReferences(
  name: string,
  attribs: Readonly<Record<string, string>>,
  node: number,
  out: PageReference[],
): void {
  const attributes = loadingAttributes.get(name);
  if (attributes !== undefined)
    for (const attribute of attributes) {
      const value = attribs[attribute];
      if (value === undefined) continue;
      if (attribute !== 'srcset') out.push({ url: value, loads: true, node });
      else for (const url of srcsetUrls(value)) out.push({ url, loads: true, node });
    }
  const href = attribs.href;
  if (href !== undefined) {
    if (name === 'link') out.push({ url: href, loads: linkLoads(attribs.rel), node });
    else if (name === 'a' || name === 'area') out.push({ url: href, loads: false, node });
  }
  const style = attribs.style;
  if (style !== undefined)
    for (const ref of cssReferences(style)) out.push({ url: ref.url, loads: true, node });
}

/** The references of a `<style>` element's sheet, which starts at `start` in the page. */
export function styleSheetReferences(
  css: string,
  node: number,
  start: number,
  out: PageReference[],
): void {
  for (const ref of cssReferences(css))
    out.push({ url: ref.url, loads: true, node, offset: start + ref.offset });
}
