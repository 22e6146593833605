import type { Element } from 'domhandler';
import { cssReferences } from './css.js';
import type { ParsedPage } from './page.js';

/** A URL written in a page, with whether the browser loads it (vs a link the reader follows). */
export interface PageReference {
  readonly url: string;
  readonly loads: boolean;
  readonly element: Element;
  /** Offset in the page text: the element's start, or the url() inside a style sheet. */
  readonly offset: number;
}

/** Attributes that make the browser fetch a resource, by element. */
const loadingAttributes: Readonly<Record<string, readonly string[]>> = {
  script: ['src'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  iframe: ['src'],
  frame: ['src'],
  embed: ['src'],
  object: ['data'],
  input: ['src'],
  image: ['href', 'xlink:href'],
  use: ['href', 'xlink:href'],
  feimage: ['href', 'xlink:href'],
};
/** `<link rel>` values that fetch their `href`; other rels (canonical, alternate…) only point. */
const loadingRels = new Set([
  'stylesheet',
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
  'manifest',
  'preload',
  'prefetch',
  'modulepreload',
  'preconnect',
  'dns-prefetch',
  'prerender',
]);

/** The URLs of a `srcset`, parsed as the HTML standard does (URL, then descriptors to a comma). */
export function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  let at = 0;
  while (at < srcset.length) {
    while (at < srcset.length && /[\s,]/.test(srcset[at]!)) at++;
    const start = at;
    while (at < srcset.length && !/\s/.test(srcset[at]!)) at++;
    const url = srcset.slice(start, at);
    if (url === '') break;
    if (url.endsWith(',')) {
      urls.push(url.replace(/,+$/, ''));
      continue;
    }
    urls.push(url);
    let depth = 0; // descriptors end at a comma outside parentheses
    for (; at < srcset.length; at++) {
      const char = srcset[at];
      if (char === '(') depth++;
      else if (char === ')') depth = Math.max(0, depth - 1);
      else if (char === ',' && depth === 0) break;
    }
  }
  return urls;
}

function attributeUrls(attribute: string, value: string): string[] {
  return attribute === 'srcset' ? srcsetUrls(value) : [value];
}

/** Every reference of a page: attributes, `<style>` elements and `style` attributes. */
export function pageReferences(page: ParsedPage): PageReference[] {
  const found: PageReference[] = [];
  for (const element of page.elements) {
    const at = element.startIndex ?? 0;
    const { attribs } = element;
    const add = (url: string, loads: boolean, offset = at) =>
      found.push({ url, loads, element, offset });

    for (const attribute of loadingAttributes[element.name] ?? [])
      if (attribs[attribute] !== undefined)
        for (const url of attributeUrls(attribute, attribs[attribute])) add(url, true);

    if (element.name === 'link' && attribs.href !== undefined) {
      const rels = (attribs.rel ?? '').toLowerCase().split(/\s+/);
      add(
        attribs.href,
        rels.some((rel) => loadingRels.has(rel)),
      );
    }
    if ((element.name === 'a' || element.name === 'area') && attribs.href !== undefined)
      add(attribs.href, false);
    if (attribs.style !== undefined)
      for (const ref of cssReferences(attribs.style)) add(ref.url, true);
    if (element.name === 'style') {
      const first = element.children[0];
      const start = first?.startIndex ?? at;
      for (const ref of cssReferences(page.textOf(element))) add(ref.url, true, start + ref.offset);
    }
  }
  return found;
}
