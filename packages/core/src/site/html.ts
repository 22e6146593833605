import { Parser } from 'htmlparser2';
import { scanCss } from './css.js';
import { scanSrcset } from './srcset.js';

/** A span of the page source, end exclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Where URLs sit in the page: an attribute (rewritten whole, its value re-escaped) or the raw
 * text of a `<style>` element (rewritten in place; `offset` is where the text starts).
 */
export type UrlHolder =
  | {
      readonly kind: 'attribute';
      readonly name: string;
      readonly value: string;
      readonly span: Span;
    }
  | { readonly kind: 'text'; readonly offset: number };

/** `load`: the page fetches it. `link`: navigation (`<a>`, `<area>`, `<link rel=canonical>`…). */
export type UrlRole = 'load' | 'link';

export interface PageUrl {
  readonly url: string;
  readonly role: UrlRole;
  readonly element: string;
  readonly holder: UrlHolder;
  /** The URL's span inside the attribute value, or inside the style text. */
  readonly at: Span;
  /** For a `link`: what to delete so it goes away and its text stays. */
  readonly removal: readonly Span[];
  /** Source index, for the line number of a violation. */
  readonly index: number;
}

export interface PageScan {
  readonly urls: readonly PageUrl[];
  /** The first `<title>` outside SVG and MathML: its collapsed text and the span of its content. */
  readonly title: { readonly text: string; readonly content: Span } | undefined;
  /** Where a missing `<title>` goes: after `<head>`, else after `<html>` or the doctype. */
  readonly titleAt: number;
  /** Text of the first `<h1>`, collapsed. */
  readonly heading: string;
  readonly ids: readonly { readonly value: string; readonly span: Span }[];
}

interface Attribute {
  readonly name: string;
  readonly value: string;
  readonly span: Span;
}

/** `<link rel>` values that make the page fetch the file. */
const loadingRels = new Set([
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
  'modulepreload',
  'prefetch',
  'prerender',
  // They fetch nothing but open a connection: the folder check counts them as loads too.
  'preconnect',
  'dns-prefetch',
]);
/** Attributes that load what they name on any element (`href` depends on the element). */
const loadingAttributes = new Set(['src', 'poster', 'background', 'data', 'xlink:href']);
const foreign = new Set(['svg', 'math']);

/** Reads the URLs, title, first heading and ids of a page in one streaming pass. */
export function scanPage(source: string): PageScan {
  const urls: PageUrl[] = [];
  const ids: { value: string; span: Span }[] = [];
  let attributes: Attribute[] = [];
  let foreignDepth = 0;
  let titleAt = 0;
  let headSeen = false;
  let title: { text: string; content: Span } | undefined;
  let titleText: string[] | undefined;
  let titleStart = 0;
  let heading: string[] | undefined;
  let headingDone = false;
  let styleStart: number | undefined;
  const anchors: { removal: Span[]; urls: PageUrl[] }[] = [];

  const addUrl = (url: Omit<PageUrl, 'index'>, index: number) => {
    const entry = { ...url, index };
    urls.push(entry);
    return entry;
  };
  const addStyleText = (start: number, end: number) => {
    const text = source.slice(start, end);
    for (const found of scanCss(text)) {
      addUrl(
        {
          url: found.url,
          role: 'load',
          element: 'style',
          holder: { kind: 'text', offset: start },
          at: { start: found.start, end: found.end },
          removal: [],
        },
        start + found.start,
      );
    }
  };

  const parser: Parser = new Parser({
    onopentagname() {
      attributes = [];
    },
    onattribute(name, value) {
      if (attributes.some((a) => a.name === name)) return;
      attributes.push({ name, value, span: { start: parser.startIndex, end: parser.endIndex } });
    },
    onopentag(name, _attribs, implied) {
      const tag: Span = { start: parser.startIndex, end: parser.endIndex + 1 };
      if (implied) return;
      if (foreign.has(name)) foreignDepth++;
      if (name === 'head' && !headSeen) {
        headSeen = true;
        titleAt = tag.end;
      } else if (name === 'html' && !headSeen) {
        titleAt = tag.end;
      } else if (name === 'title' && foreignDepth === 0 && title === undefined) {
        titleText = [];
        titleStart = tag.end;
      } else if (name === 'h1' && !headingDone) {
        heading = [];
      } else if (name === 'style') {
        styleStart = tag.end;
      }
      const removal: Span[] = name === 'a' ? [tag] : [];
      const start = urls.length;
      for (const attribute of attributes) readAttribute(name, attribute, tag, removal);
      if (name === 'a') anchors.push({ removal, urls: urls.slice(start) });
    },
    onclosetag(name, implied) {
      const tag: Span = { start: parser.startIndex, end: parser.endIndex + 1 };
      if (foreign.has(name)) foreignDepth = Math.max(0, foreignDepth - 1);
      if (name === 'title' && titleText !== undefined) {
        const content = { start: titleStart, end: implied ? titleStart : tag.start };
        title = { text: collapse(titleText.join('')), content };
        titleText = undefined;
      } else if (name === 'h1' && heading !== undefined) {
        headingDone = collapse(heading.join('')) !== '';
        if (!headingDone) heading = undefined;
      } else if (name === 'style' && styleStart !== undefined) {
        addStyleText(styleStart, implied ? source.length : tag.start);
        styleStart = undefined;
      } else if (name === 'a') {
        const anchor = anchors.pop();
        if (anchor && !implied) anchor.removal.push(tag);
      }
    },
    ontext(text) {
      titleText?.push(text);
      if (heading !== undefined && !headingDone) heading.push(text);
    },
    onprocessinginstruction(name) {
      if (name === '!doctype' && !headSeen) titleAt = parser.endIndex + 1;
    },
  });

  function readAttribute(element: string, attribute: Attribute, tag: Span, removal: Span[]) {
    const { name, value, span } = attribute;
    const holder: UrlHolder = { kind: 'attribute', name, value, span };
    const add = (url: string, at: Span, role: UrlRole, removed: readonly Span[]) =>
      addUrl({ url, role, element, holder, at, removal: removed }, span.start);
    if (name === 'id' && value !== '') {
      ids.push({ value, span });
    } else if (name === 'style') {
      for (const found of scanCss(value)) add(found.url, found, 'load', []);
    } else if (name === 'srcset') {
      for (const found of scanSrcset(value)) add(found.url, found, 'load', []);
    } else if (name === 'href' && element !== 'base') {
      const role = hrefRole(element, attributes);
      const removed = element === 'a' ? removal : element === 'area' ? [span] : [tag];
      add(value, trimmed(value), role, removed);
    } else if (loadingAttributes.has(name) && (name !== 'data' || element === 'object')) {
      add(value, trimmed(value), 'load', []);
    }
  }

  parser.end(source);
  return { urls, title, titleAt, heading: heading ? collapse(heading.join('')) : '', ids };
}

function hrefRole(element: string, attributes: readonly Attribute[]): UrlRole {
  if (element === 'a' || element === 'area') return 'link';
  if (element !== 'link') return 'load';
  const rel = attributes.find((a) => a.name === 'rel')?.value.toLowerCase() ?? '';
  return rel.split(/\s+/).some((word) => loadingRels.has(word)) ? 'load' : 'link';
}

function trimmed(value: string): Span {
  const start = value.length - value.trimStart().length;
  return { start, end: start + value.trim().length };
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** 1-based line of a source index. */
export function lineOf(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i >= 0 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}
