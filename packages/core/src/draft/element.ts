import type { ChildNode } from 'domhandler';
import { cloneNode, DomHandler, Element, isTag } from 'domhandler';
import type { Parser } from 'htmlparser2';
import { maxNesting } from '../html/page.js';
import type { OutlineEntry } from './schema.js';

/**
 * xorshift32: deterministic, fast, and good enough to balance a treap. Priorities keep 30 bits
 * so they stay small integers stored in the element, not boxed numbers on the heap.
 */
let seed = 0x9e3779b9;
function nextPriority(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 2;
}

/**
 * A domhandler element that also is its own node in the pre-order index (an implicit treap, see
 * pre-order.ts) and keeps its outline text. Carrying these fields in the element
 * itself, instead of a side table keyed by element, saves a lookup per step and about a third of
 * the index's memory.
 */
export class DraftElement extends Element {
  left: DraftElement | null = null;
  right: DraftElement | null = null;
  up: DraftElement | null = null;
  size = 1;
  readonly priority = nextPriority();
  /** Outline text; undefined until read, and again whenever the content below changes. */
  text: string | undefined = undefined;
  /** The Edges of that text (see outline-text.ts). */
  textEdges = 0;
  /** The element's latest outline entry (see outline.ts). */
  entry: Readonly<OutlineEntry> | undefined = undefined;
}

/** Tag names repeat endlessly in a page: one string per name instead of one per element. */
const names = new Map<string, string>();
function shared(name: string): string {
  const known = names.get(name);
  if (known !== undefined) return known;
  if (names.size < 1024) names.set(name, name);
  return name;
}

/**
 * The attributes of every element written without any: one frozen object instead of one each.
 * Nothing writes into the attributes of an element in a draft (a copy gets its own object).
 */
const noAttributes: Record<string, string> = Object.freeze({});
function hasAny(attribs: Record<string, string>): boolean {
  for (const _ in attribs) return true;
  return false;
}

/**
 * Builds the DOM with DraftElements, lists the elements of the first <body> in pre-order as they
 * open, and trims every child list to its length when its element closes (a growing array keeps
 * room for 17 entries, which for a page of small elements is a large share of its memory).
 *
 * The first element nested deeper than `maxDepth` stops the parser, as in the `pages` check:
 * `tooDeep` is set and nothing more is read or built. htmlparser2 keeps its open elements with
 * `Array.unshift`, so reading on would cost the square of the depth (80,000 unclosed `<div>`s,
 * 400 KB: 3 s), and the refusal is already certain.
 */
export class DraftHandler extends DomHandler {
  body: DraftElement | null = null;
  /** The first <body> and every element inside it, in pre-order. */
  readonly bodyOrder: DraftElement[] = [];
  /** Ids of the elements outside that <body>, as written. */
  readonly outsideIds: string[] = [];
  /** An element nested deeper than `maxDepth` was met: the parser stopped there. */
  tooDeep = false;
  private inBody = false;
  private reader: Parser | null = null;

  constructor(private readonly maxDepth: number = maxNesting) {
    super();
  }

  /** htmlparser2's Parser introduces itself here, the only parser that drives this handler. */
  override onparserinit(parser: Parser): void {
    super.onparserinit(parser);
    this.reader = parser;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    // The stack holds the root and the open elements: its length is the new element's depth.
    if (this.tagStack.length > this.maxDepth) {
      this.tooDeep = true;
      this.reader?.pause(); // no further events, except the end tag of a void element: ignored
      return;
    }
    const element = new DraftElement(shared(name), hasAny(attribs) ? attribs : noAttributes);
    this.addNode(element);
    this.tagStack.push(element);
    if (!this.inBody && name === 'body' && !this.body) {
      this.body = element;
      this.inBody = true;
    }
    if (this.inBody) this.bodyOrder.push(element);
    else if (attribs['id']) this.outsideIds.push(attribs['id']);
  }

  override onclosetag(): void {
    if (this.tooDeep) return;
    const element = this.tagStack[this.tagStack.length - 1];
    if (element && element.children.length > 0) element.children = element.children.slice();
    if (element === this.body) this.inBody = false;
    super.onclosetag();
  }
}

/** A deep copy whose elements are DraftElements (domhandler's cloneNode makes plain ones). */
export function cloneDeep(element: Element): DraftElement {
  const copy = new DraftElement(element.name, { ...element.attribs });
  const children = element.children.map((child) =>
    isTag(child) ? cloneDeep(child) : cloneNode(child, true),
  );
  children.forEach((child: ChildNode, index) => {
    child.parent = copy;
    child.prev = children[index - 1] ?? null;
    child.next = children[index + 1] ?? null;
  });
  copy.children = children;
  return copy;
}
