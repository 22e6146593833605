import { isCDATA, isTag, isText } from 'domhandler';
import type { ChildNode } from 'domhandler';
import { decodeHTML } from 'entities';
import type { DraftElement } from './element.js';
import { rawTextElements } from './html.js';

/** Outline text is cut at this many characters (code points), with no ellipsis. */
export const outlineTextLength = 80;

/**
 * What a parent needs to know of a child's text besides its trimmed, cut form (`text`):
 * whether the text content is empty, and whether it starts or ends with white space.
 */
export const enum Edges {
  Leading = 1,
  Trailing = 2,
  Content = 4,
}

/**
 * Sets `element.text`: its text content (entities decoded, comments left out), ASCII white space
 * collapsed, trimmed and cut at 80 characters, with `element.textEdges`. Built from the children,
 * whose own results must be set already (the outline visits children first), so every text node
 * is read once, and no further than the cut needs.
 */
export function summarize(element: DraftElement): void {
  const children = element.children;
  const raw = rawTextElements.has(element.name);
  const only = children.length === 1 ? children[0] : undefined;
  if (children.length === 0) {
    element.text = '';
    element.textEdges = 0;
  } else if (only && isText(only) && isPlain(only.data, raw)) {
    summarizePlain(element, only.data);
  } else {
    fold.start();
    for (const child of children) if (fold.addNode(child, raw)) break;
    fold.finish(element);
  }
}

/** ASCII white space, the only kind HTML collapses (a no-break space stays). */
const spaceRun = /[\t\n\f\r ]+/g;
/** Whether collapsing would change the text (indexOf scans are much cheaper than a regex test). */
function needsCollapse(text: string): boolean {
  return (
    text.includes('\n') ||
    text.includes('  ') ||
    text.includes('\t') ||
    text.includes('\r') ||
    text.includes('\f')
  );
}
const hasSurrogates = /[\ud800-\udbff]/;
const isSpace = (code: number): boolean =>
  code === 32 || code === 10 || code === 9 || code === 13 || code === 12;

/** Text already in final form but for one space at either end. */
function isPlain(data: string, raw: boolean): boolean {
  return data.length <= outlineTextLength && (raw || !data.includes('&')) && !needsCollapse(data);
}

function summarizePlain(element: DraftElement, data: string): void {
  element.text = trim(data);
  element.textEdges = trimmedEdges;
}

/** The edges of the text last given to trim (a variable rather than a pair: no allocation). */
let trimmedEdges = 0;

/** Collapsed text without its one leading and one trailing space; sets trimmedEdges. */
function trim(text: string): string {
  if (text === '') {
    trimmedEdges = 0;
    return '';
  }
  const leading = isSpace(text.charCodeAt(0));
  const trailing = isSpace(text.charCodeAt(text.length - 1));
  const start = leading ? 1 : 0;
  const end = trailing ? text.length - 1 : text.length;
  trimmedEdges = Edges.Content | (leading ? Edges.Leading : 0) | (trailing ? Edges.Trailing : 0);
  return end > start ? text.slice(start, end) : '';
}

/** Longest entity reference, so a chunk boundary never cuts one in two. */
const longestReference = 40;
const chunkLength = 128;

/** Folds the children's texts into the parent's: a space is written only once text follows it. */
class Fold {
  private out = '';
  private parts = 0;
  private count = 0;
  private pending = false;
  private any = false;
  private leading = false;
  private trailing = false;
  /** Whether the lone piece may be kept as is: not a slice of a temporary string. */
  private keepable = true;

  start(): void {
    this.out = '';
    this.parts = 0;
    this.count = 0;
    this.pending = this.any = this.leading = this.trailing = false;
    this.keepable = true;
  }

  /** Adds one child; true once 80 characters are collected. */
  addNode(node: ChildNode, raw: boolean): boolean {
    if (isText(node)) return this.addData(node.data, raw);
    if (isTag(node)) {
      const element = node as DraftElement;
      return this.add(element.text!, element.textEdges, true);
    }
    if (isCDATA(node)) return node.children.some((child) => this.addNode(child, true));
    return false;
  }

  /** Adds raw text data in bounded chunks, decoded unless it is raw text. */
  private addData(data: string, raw: boolean): boolean {
    for (let start = 0; start < data.length;) {
      let end = Math.min(data.length, start + chunkLength);
      if (!raw && end < data.length) {
        const amp = data.lastIndexOf('&', end);
        if (amp > start && end - amp < longestReference) end = amp;
      }
      const chunk = start === 0 && end === data.length ? data : data.slice(start, end);
      start = end;
      const decoded = !raw && chunk.includes('&') ? decodeHTML(chunk) : chunk;
      const text = needsCollapse(decoded) ? decoded.replace(spaceRun, ' ') : decoded;
      const core = trim(text);
      if (this.add(core, trimmedEdges, text === data)) return true;
    }
    return false;
  }

  private add(core: string, edges: number, keepable: boolean): boolean {
    if (!(edges & Edges.Content)) return false;
    if (!this.any) {
      this.any = true;
      this.leading = (edges & Edges.Leading) !== 0;
    }
    if (edges & Edges.Leading) this.pending = true;
    if (core !== '') {
      if (this.pending && this.count > 0) this.push(' ', true);
      if (this.count >= outlineTextLength) return true;
      this.push(cutCodePoints(core, outlineTextLength - this.count), keepable);
      this.pending = false;
      this.trailing = false;
    }
    if (edges & Edges.Trailing) this.pending = this.trailing = true;
    return this.count >= outlineTextLength;
  }

  private push(piece: string, keepable: boolean): void {
    this.keepable = this.parts === 0 && keepable;
    this.out += piece;
    this.parts += 1;
    this.count += hasSurrogates.test(piece) ? codePointLength(piece) : piece.length;
  }

  finish(element: DraftElement): void {
    const full = this.count >= outlineTextLength;
    element.textEdges =
      (this.any ? Edges.Content : 0) |
      (this.leading ? Edges.Leading : 0) |
      (this.trailing && !full ? Edges.Trailing : 0);
    // A lone slice of a temporary (decoded or collapsed) string is copied, so the outline does
    // not keep the larger temporary alive; pieces joined by + share their strings.
    const copy = this.parts === 1 && !this.keepable && this.out.length >= 13;
    element.text = copy ? [this.out, ''].join('') : this.out;
  }
}

/** One fold for all: a parent is summarized only once its children are. */
const fold = new Fold();

function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff) count += 1;
  }
  return count;
}

function cutCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = 0;
  for (let count = 0; count < limit && end < text.length; count++) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end);
}
