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

/**
 * Attributes that make the browser fetch a resource, by element. `background` is legacy
 * markup every browser still fetches as the element's background image. The `href` of an SVG
 * element is read apart (`hrefLoads`), and a `<link>`'s URLs depend on its `rel`.
 */
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
  ['body', ['background']],
  ['table', ['background']],
  ['thead', ['background']],
  ['tbody', ['background']],
  ['tfoot', ['background']],
  ['tr', ['background']],
  ['td', ['background']],
  ['th', ['background']],
]);

/**
 * Whether an attribute is an `href`: unprefixed, or an XLink `href` (`xlink:href`). The XLink
 * namespace may be bound to any prefix (`xmlns:q="http://www.w3.org/1999/xlink"`, `q:href`),
 * and a check that trusted only `xlink:` could be passed by renaming the prefix, so every
 * prefixed `href` counts. Plain-site conversion reads the same attributes.
 */
export function isHrefAttribute(name: string): boolean {
  return name === 'href' || name.endsWith(':href');
}

/**
 * Whether an attribute holds a `srcset` (image candidates, each a URL): `srcset` itself, or the
 * `imagesrcset` of a `<link>` (`rel="preload" as="image"`), which the browser fetches alike.
 * Plain-site conversion reads the same attributes.
 */
export function isSrcsetAttribute(element: string, name: string): boolean {
  return name === 'srcset' || (name === 'imagesrcset' && element === 'link');
}

/**
 * SVG elements whose `href` counts as a load even outside an `<svg>`, as it always has: nothing
 * legitimate writes them in HTML content, and counting them errs on the safe side.
 */
const svgLoadingElements: ReadonlySet<string> = new Set(['image', 'use', 'feimage']);

/**
 * What an element's `href` (with any prefix) is: a link the reader follows (`false`), a load
 * (`true`), or nothing to read (`undefined`). In SVG every element but `<a>` loads what its
 * `href` names (`<script>`, `<image>`, `<use>`, `<feImage>`, filters, gradients, patterns,
 * animations…); a fragment (`#id`) names the same document and resolves to nothing to check. A
 * `<base>` is read as the page's base instead (`PageFacts.base`), a `<link>` by its `rel`.
 */
function hrefLoads(element: string, inSvg: boolean): boolean | undefined {
  if (element === 'a' || element === 'area') return false;
  if (element === 'base') return undefined;
  return inSvg || svgLoadingElements.has(element) ? true : undefined;
}

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

/** The URLs of an attribute's value: the candidates of a srcset, else the value itself. */
function attributeUrls(element: string, attribute: string, value: string): string[] {
  return isSrcsetAttribute(element, attribute) ? srcsetUrls(value) : [value];
}

/**
 * The references in one element's attributes (its `style` attribute included), added to `out`.
 * `inSvg`: the element is inside an `<svg>`, where an `href` loads what it names.
 */
export function attributeReferences(
  name: string,
  attribs: Readonly<Record<string, string>>,
  node: number,
  out: PageReference[],
  inSvg = false,
): void {
  const attributes = loadingAttributes.get(name);
  if (attributes !== undefined)
    for (const attribute of attributes) {
      const value = attribs[attribute];
      if (value === undefined) continue;
      for (const url of attributeUrls(name, attribute, value)) out.push({ url, loads: true, node });
    }
  if (name === 'link') {
    const loads = linkLoads(attribs.rel);
    for (const attribute of ['href', 'imagesrcset']) {
      const value = attribs[attribute];
      if (value === undefined) continue;
      for (const url of attributeUrls(name, attribute, value)) out.push({ url, loads, node });
    }
  } else {
    const loads = hrefLoads(name, inSvg);
    if (loads !== undefined)
      for (const [attribute, url] of Object.entries(attribs))
        if (isHrefAttribute(attribute)) out.push({ url, loads, node });
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
