import { Parser, type Handler } from 'htmlparser2';
import { scanCss } from './css.js';
import { scanSrcset } from './srcset.js';
import { isHrefAttribute, isSrcsetAttribute, loadingRels } from '../html/references.js';
import { maxNesting } from '../html/page.js';

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
  /** In a page: the element that holds the URL (what a drop removes or replaces). */
  readonly owner?: ElementSpans;
}

/** An element's start tag, and the whole element (to its end tag; its start tag when void). */
export interface ElementSpans {
  readonly tag: Span;
  readonly whole: Span;
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
  /**
   * The first `<base>` with an `href` (anywhere, as the links check reads it): what the page's
   * relative URLs resolve against. `index` is where its `href` starts.
   */
  readonly base: { readonly href: string; readonly index: number } | undefined;
  /**
   * Every `href` of every `<base>`, with the white space before it: what to delete so the page's
   * URLs resolve from the page itself (deleting only the first would let the next one count).
   */
  readonly baseHrefs: readonly Span[];
  /**
   * Elements nest past `maxNesting`: the scan stopped there, as the pages check stops reading
   * (reading on is quadratic in the depth), and the page cannot be converted.
   */
  readonly tooDeep: boolean;
}

/** An attribute as read; it is also the holder of the URLs in its value. */
type Attribute = Extract<UrlHolder, { kind: 'attribute' }>;

/**
 * Attributes that load what they name on any element. An `href` (with any prefix: XLink) and a
 * srcset are read as the links check reads them (`isHrefAttribute`, `isSrcsetAttribute`).
 */
const loadingAttributes = new Set(['src', 'poster', 'background', 'data']);
const foreign = new Set(['svg', 'math']);

/** Attributes the scan reads (and any prefixed `href`); the others are skipped as reported. */
const readAttributes = new Set([
  'id',
  'style',
  'srcset',
  'imagesrcset',
  'href',
  'rel',
  ...loadingAttributes,
]);

/** Reads the URLs, title, first heading and ids of a page in one streaming pass. */
export function scanPage(source: string): PageScan {
  const scanner = new PageScanner(source);
  new Parser(scanner).end(source);
  return scanner.result();
}

/**
 * The parser's handler. A class, not closures: a site has thousands of pages and each page
 * thousands of events, so nothing is allocated per event that the scan does not keep.
 */
class PageScanner implements Partial<Handler> {
  private parser!: Parser;
  private readonly urls: PageUrl[] = [];
  private readonly ids: { value: string; span: Span }[] = [];
  private attributes: Attribute[] = [];
  private foreignDepth = 0;
  private titleAt = 0;
  private headSeen = false;
  private title: { text: string; content: Span } | undefined;
  private titleText: string[] | undefined;
  private titleStart = 0;
  private heading: string[] | undefined;
  private headingDone = false;
  private styleStart: number | undefined;
  /** Removal spans of the open `<a>` elements, innermost last. */
  private readonly anchors: Span[][] = [];
  private tagName = '';
  private base: { href: string; index: number } | undefined;
  private readonly baseHrefs: Span[] = [];
  private depth = 0;
  private tooDeep = false;
  /**
   * Per open element (implied ones too): its whole span, where it holds attributes the scan
   * reads (only those can hold a URL), its end set when it closes.
   */
  private readonly open: ({ start: number; end: number } | null)[] = [];

  constructor(private readonly source: string) {}

  result(): PageScan {
    const heading = this.heading ? collapse(this.heading.join('')) : '';
    const { urls, title, titleAt, ids, base, baseHrefs, tooDeep } = this;
    return { urls, title, titleAt, heading, ids, base, baseHrefs, tooDeep };
  }

  onparserinit(parser: Parser): void {
    this.parser = parser;
  }

  onopentagname(name: string): void {
    this.tagName = name;
    if (this.attributes.length > 0) this.attributes = [];
  }

  onattribute(name: string, value: string): void {
    if (!readAttributes.has(name) && !isHrefAttribute(name)) return;
    const span = { start: this.parser.startIndex, end: this.parser.endIndex };
    if (name === 'href' && this.tagName === 'base') this.addBase(value, span);
    if (this.attributes.some((a) => a.name === name)) return;
    this.attributes.push({ kind: 'attribute', name, value, span });
  }

  onopentag(name: string, _attribs: unknown, implied: boolean): void {
    // Counted as the pages check counts (readPage): every element opened, implied ones too.
    if (this.depth >= maxNesting) {
      this.tooDeep = true;
      this.parser.pause();
      return;
    }
    this.depth++;
    const end = this.parser.endIndex + 1;
    const whole =
      !implied && this.attributes.length > 0 ? { start: this.parser.startIndex, end } : null;
    this.open.push(whole);
    if (implied) return;
    if (foreign.has(name)) this.foreignDepth++;
    if (name === 'head' && !this.headSeen) {
      this.headSeen = true;
      this.titleAt = end;
    } else if (name === 'html' && !this.headSeen) {
      this.titleAt = end;
    } else if (name === 'title' && this.foreignDepth === 0 && this.title === undefined) {
      this.titleText = [];
      this.titleStart = end;
    } else if (name === 'h1' && !this.headingDone) {
      this.heading = [];
    } else if (name === 'style') {
      this.styleStart = end;
    }
    const tag = { start: this.parser.startIndex, end };
    const removal: Span[] = name === 'a' ? [tag] : [];
    if (whole !== null) {
      const owner = { tag, whole };
      for (const attribute of this.attributes) this.readAttribute(name, attribute, owner, removal);
    }
    if (name === 'a') this.anchors.push(removal);
  }

  onclosetag(name: string, implied: boolean): void {
    this.depth--;
    // An end tag written ends the element there; an implied one (a void element, or one left
    // open) leaves it at its start tag, which holds the URL.
    const whole = this.open.pop();
    if (whole && !implied) whole.end = this.parser.endIndex + 1;
    if (foreign.has(name)) this.foreignDepth = Math.max(0, this.foreignDepth - 1);
    const start = this.parser.startIndex;
    if (name === 'title' && this.titleText !== undefined) {
      const content = { start: this.titleStart, end: implied ? this.titleStart : start };
      this.title = { text: collapse(this.titleText.join('')), content };
      this.titleText = undefined;
    } else if (name === 'h1' && this.heading !== undefined) {
      this.headingDone = collapse(this.heading.join('')) !== '';
      if (!this.headingDone) this.heading = undefined;
    } else if (name === 'style' && this.styleStart !== undefined) {
      this.addStyleText(this.styleStart, implied ? this.source.length : start);
      this.styleStart = undefined;
    } else if (name === 'a') {
      const removal = this.anchors.pop();
      if (removal && !implied) removal.push({ start, end: this.parser.endIndex + 1 });
    }
  }

  ontext(text: string): void {
    this.titleText?.push(text);
    if (this.heading !== undefined && !this.headingDone) this.heading.push(text);
  }

  onprocessinginstruction(name: string): void {
    if (name === '!doctype' && !this.headSeen) this.titleAt = this.parser.endIndex + 1;
  }

  /** A `<base href>`: the first one counts (a repeated `href` is ignored); all are removable. */
  private addBase(href: string, span: Span): void {
    const first = this.baseHrefs.length === 0;
    let start = span.start;
    while (start > 0 && this.source.charCodeAt(start - 1) <= 0x20) start--;
    this.baseHrefs.push({ start, end: span.end });
    if (first) this.base = { href, index: span.start };
  }

  private addStyleText(start: number, end: number): void {
    const holder: UrlHolder = { kind: 'text', offset: start };
    for (const found of scanCss(this.source.slice(start, end))) {
      const at = { start: found.start, end: found.end };
      this.add(found.url, 'load', 'style', holder, at, noRemoval, start + found.start);
    }
  }

  private readAttribute(
    element: string,
    attribute: Attribute,
    owner: ElementSpans,
    removal: Span[],
  ): void {
    const { name, value, span } = attribute;
    const { tag } = owner;
    if (name === 'id') {
      if (value !== '') this.ids.push({ value, span });
      return;
    }
    const holder = attribute;
    if (name === 'style') {
      for (const found of scanCss(value))
        this.add(found.url, 'load', element, holder, found, noRemoval, span.start, owner);
    } else if (isSrcsetAttribute(element, name)) {
      // A `<link imagesrcset>` loads as its `rel` says, and goes with the link when it is
      // removed, as its `href` does.
      const role = element === 'link' ? hrefRole(element, this.attributes) : 'load';
      const removed = element === 'link' ? [tag] : noRemoval;
      for (const found of scanSrcset(value))
        this.add(found.url, role, element, holder, found, removed, span.start, owner);
    } else if (isHrefAttribute(name) && element !== 'base') {
      const role = hrefRole(element, this.attributes);
      const removed = element === 'a' ? removal : element === 'area' ? [span] : [tag];
      this.add(value, role, element, holder, trimmed(value), removed, span.start, owner);
    } else if (loadingAttributes.has(name) && (name !== 'data' || element === 'object')) {
      this.add(value, 'load', element, holder, trimmed(value), noRemoval, span.start, owner);
    }
  }

  private add(
    url: string,
    role: UrlRole,
    element: string,
    holder: UrlHolder,
    at: Span,
    removal: readonly Span[],
    index: number,
    owner?: ElementSpans,
  ): void {
    this.urls.push({ url, role, element, holder, at, removal, index, ...(owner ? { owner } : {}) });
  }
}

const noRemoval: readonly Span[] = [];

function hrefRole(element: string, attributes: readonly Attribute[]): UrlRole {
  if (element === 'a' || element === 'area') return 'link';
  if (element !== 'link') return 'load';
  const rel = attributes.find((a) => a.name === 'rel')?.value.toLowerCase() ?? '';
  return rel.split(/\s+/).some((word) => loadingRels.has(word)) ? 'load' : 'link';
}

/** The span of the value without the ASCII whitespace HTML strips from URLs. */
function trimmed(value: string): Span {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return { start, end };
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
