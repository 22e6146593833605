import type { ChildNode } from 'domhandler';
import { isCDATA, isTag, isText } from 'domhandler';
import { decodeHTML } from 'entities';
import type { DraftElement } from './element.js';
import { rawTextElements } from './html.js';

/** Outline text is cut at this many characters (code points), with no ellipsis. */
const outlineTextLength = 80;

/**
 * What a parent needs to know of a child's text besides its trimmed, cut form: whether the text
 * content is empty, whether it starts or ends with white space, and whether the kept text holds
 * characters beyond the BMP (so its length in code points is not its length).
 */
const enum Edges {
  Leading = 1,
  Trailing = 2,
  Content = 4,
  Astral = 8,
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
  } else if (
    only &&
    isText(only) &&
    only.data.length <= outlineTextLength &&
    isPlain(only.data, raw)
  ) {
    element.text = trim(only.data);
    element.textEdges = trimmedEdges;
  } else {
    fold.start();
    for (const child of children) if (fold.addNode(child, raw)) break;
    fold.finish(element);
  }
}

/** ASCII white space, the only kind HTML collapses (a no-break space stays). */
const spaceRun = /[\t\n\f\r ]+/g;
/** What needs more than trimming: white space to collapse, a reference, a surrogate pair. */
const special = /[\t\n\f\r&\ud800-\udbff]| {2}/;
const specialRaw = /[\t\n\f\r\ud800-\udbff]| {2}/;
const needsCollapse = /[\t\n\f\r]| {2}/;
const hasSurrogates = /[\ud800-\udbff]/;
const isSpace = (code: number): boolean =>
  code === 32 || code === 10 || code === 9 || code === 13 || code === 12;

/** Text that is final but for one space at either end, counted in code units. */
function isPlain(text: string, raw: boolean): boolean {
  return !(raw ? specialRaw : special).test(text);
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
  private astral = false;
  /** Whether the lone piece may be kept as is: not a slice of a temporary string. */
  private keepable = true;

  start(): void {
    this.out = '';
    this.parts = this.count = 0;
    this.pending = this.any = this.leading = this.trailing = this.astral = false;
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
      let text = chunk;
      let astral = 0;
      if (!isPlain(chunk, raw)) {
        if (!raw && text.includes('&')) text = decodeHTML(text);
        if (needsCollapse.test(text)) text = text.replace(spaceRun, ' ');
        if (hasSurrogates.test(text)) astral = Edges.Astral;
      }
      const core = trim(text);
      if (this.add(core, trimmedEdges | astral, text === data)) return true;
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
      if (this.pending && this.count > 0) this.push(' ', 0, true);
      if (this.count >= outlineTextLength) return true;
      this.push(core, edges & Edges.Astral, keepable);
      this.pending = false;
      this.trailing = false;
    }
    if (edges & Edges.Trailing) this.pending = this.trailing = true;
    return this.count >= outlineTextLength;
  }

  private push(piece: string, astral: number, keepable: boolean): void {
    const room = outlineTextLength - this.count;
    let kept = piece;
    if (!astral) {
      if (kept.length > room) kept = kept.slice(0, room);
      this.count += kept.length;
    } else {
      kept = cutCodePoints(kept, room);
      this.count += codePointLength(kept);
      this.astral = true;
    }
    this.keepable = this.parts === 0 && keepable;
    this.out += kept;
    this.parts += 1;
  }

  finish(element: DraftElement): void {
    const full = this.count >= outlineTextLength;
    element.textEdges =
      (this.any ? Edges.Content : 0) |
      (this.leading ? Edges.Leading : 0) |
      (this.trailing && !full ? Edges.Trailing : 0) |
      (this.astral ? Edges.Astral : 0);
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
    if (code < 0xdc00 || code > 0xdfff) count += 1;
  }
  return count;
}

function cutCodePoints(text: string, limit: number): string {
  let end = 0;
  for (let count = 0; count < limit && end < text.length; count++) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return end >= text.length ? text : text.slice(0, end);
}
