import type {
  ElementChanges,
  ElementHandle,
  ElementView,
  MarkedContent,
  MarkedHtml,
} from '@galley/core';
import { library } from '../library.js';

/** What the preview shows, as the frame holds it: each element of the draft and its own. */
export interface ShownElements {
  readonly byHandle: Map<ElementHandle, HTMLElement>;
  readonly byElement: WeakMap<Element, ElementHandle>;
}

/**
 * The page's own links and controls would put every one of them in the editor's Tab order: the
 * preview is one stop, and the outline is the way through the page by keyboard.
 */
const PAGE_CONTROLS =
  'a[href], area[href], button, input, select, textarea, summary, [tabindex], [contenteditable]';

/**
 * Maps the preview's elements, as the browser built them from the marked HTML, to the draft's;
 * `faithful` when they are one for one (the browser made up, copied or moved none of them), the
 * condition for drawing a change in place. Takes the page's own controls out of the Tab order.
 */
export function mapShown(
  doc: Document,
  marked: Pick<MarkedHtml, 'elements' | 'parents'>,
): ShownElements & { faithful: boolean } {
  const { PREVIEW_ATTRIBUTE: mark } = library();
  const { elements, parents } = marked;
  const byHandle = new Map<ElementHandle, HTMLElement>();
  const byElement = new WeakMap<Element, ElementHandle>();
  let faithful = true;
  let last = 0;
  for (const element of doc.querySelectorAll<HTMLElement>(`[${mark}]`)) {
    const number = Number(element.getAttribute(mark));
    const handle = elements[number];
    if (!handle || byHandle.has(handle)) {
      faithful = false;
      continue;
    }
    byHandle.set(handle, element);
    byElement.set(element, handle);
    // In document order, which is the draft's pre-order, each one in its own parent.
    const parent = element.parentElement;
    const parentNumber = parent === doc.body ? 0 : Number(parent?.getAttribute(mark));
    if (number <= last || parentNumber !== parents[number]) faithful = false;
    last = number;
  }
  const body = elements[0];
  if (body && doc.body) {
    byHandle.set(body, doc.body);
    byElement.set(doc.body, body);
  }
  faithful &&=
    byHandle.size === elements.length &&
    doc.body?.querySelectorAll('*').length === elements.length - 1;
  for (const control of doc.querySelectorAll<HTMLElement>(PAGE_CONTROLS)) control.tabIndex = -1;
  return { byHandle, byElement, faithful };
}

/**
 * Draws a draft's changes into the preview in place: only the content of each element whose
 * children changed is parsed (in that element's own context, in the frame's document, which runs
 * no script), and the elements it already shows are moved back in rather than drawn again. The
 * browser then lays out and paints only what changed, and the scroll position stays where it is.
 * The marks of the elements after the first one that came or went are left for `renumber`.
 *
 * Answers false when the change cannot be drawn faithfully this way (the browser built something
 * else from the HTML than the draft holds, as it does with a misplaced table row): then the caller
 * draws the body anew.
 */
export function patchPreview(
  doc: Document,
  shown: ShownElements,
  view: ElementView,
  changes: ElementChanges,
): boolean {
  const { PREVIEW_ATTRIBUTE: mark, PREVIEW_SLOT_ATTRIBUTE: slot } = library();
  const { byHandle, byElement } = shown;
  const isShown = (handle: ElementHandle) => byHandle.get(handle)?.isConnected === true;
  const replaced: Element[] = [];
  for (const parent of changes.parents) {
    if (view.numberOf(parent) === null) continue;
    const host = byHandle.get(parent);
    if (!host?.isConnected) return false;
    const content = view.markedContent(parent, isShown);
    const parsed = parseInPlace(doc, host, content.html);
    const fresh = parsed && freshElements(parsed, content, view, mark, slot);
    if (!fresh || !sameChildren(parsed, view.childrenOf(parent), content, fresh, slot))
      return false;
    for (const control of parsed.querySelectorAll<HTMLElement>(PAGE_CONTROLS))
      control.tabIndex = -1;
    for (const [element, handle] of fresh) {
      byHandle.set(handle, element);
      byElement.set(element, handle);
    }
    const next = [...parsed.childNodes].map((node) =>
      node.nodeType === Node.ELEMENT_NODE && (node as Element).hasAttribute(slot)
        ? byHandle.get(content.slots[Number((node as Element).getAttribute(slot))]!)!
        : node,
    );
    replaced.push(...host.children);
    reconcile(host, next);
  }
  forgetRemoved(replaced, shown);
  return true;
}

/**
 * Sets the marks of the elements from number `from` on to their numbers now, until `budget`
 * says stop; answers where it stopped (the number of elements when done). A mark is only read by
 * people and tests: the editor finds elements by `ShownElements`, so this can wait for idle time.
 */
export function renumber(
  shown: ShownElements,
  order: readonly ElementHandle[],
  from: number,
  budget: () => boolean,
): number {
  const { PREVIEW_ATTRIBUTE: mark } = library();
  let n = Math.max(1, from);
  for (; n < order.length && (n % 256 !== 0 || budget()); n++) {
    const element = shown.byHandle.get(order[n]!);
    if (element && element.getAttribute(mark) !== String(n)) element.setAttribute(mark, String(n));
  }
  return n;
}

/**
 * Parses an element's new content as the browser parses it in the whole page: inside a copy of
 * the element's ancestors (what the parser does with a tag depends on the elements open around
 * it: a <div> closes an open <p>, a second <a> closes the first), in a document of the same mode
 * that runs no script and loads nothing. The parser is the frame's own, so the page's inline
 * styles are judged by the preview's policy, as in the whole page, not by the editor's (which
 * refuses them, and would leave them unapplied once moved into the page). Answers the copy of the
 * element, holding the content (null if the ancestors themselves come out otherwise).
 */
function parseInPlace(doc: Document, host: Element, html: string): Element | null {
  const chain: Element[] = [];
  for (let element: Element | null = host; element && element !== doc.body;) {
    chain.unshift(element);
    element = element.parentElement;
  }
  const doctype = doc.compatMode === 'CSS1Compat' ? '<!doctype html>' : '';
  const open = chain.map((element, i) => openTag(element, i === chain.length - 1)).join('');
  const body = openTag(doc.body, chain.length === 0);
  const Parser = doc.defaultView?.DOMParser;
  if (!Parser) return null;
  const parsed = new Parser().parseFromString(`${doctype}${body}${open}${html}`, 'text/html');
  const copy = parsed.querySelector(`[${HOST_ATTRIBUTE}]`);
  if (copy?.localName !== host.localName) return null;
  // Nothing was put beside the ancestors: text or elements the parser moves out of the element
  // (out of a table, out of a <p> that a <div> closes) would land there.
  for (let outer = copy.parentElement; outer && outer !== parsed.documentElement;)
    if (outer.childNodes.length !== 1) return null;
    else outer = outer.parentElement;
  return copy;
}

const HOST_ATTRIBUTE = 'data-galley-host';

/** The only attributes that change how the parser builds what follows an element. */
const PARSING_ATTRIBUTES = new Set(['encoding', 'type']);

/** An ancestor's start tag, as the parser needs it: its name and what changes its parsing. */
function openTag(element: Element, isHost: boolean): string {
  const attributes = [...element.attributes]
    .filter(({ name }) => PARSING_ATTRIBUTES.has(name))
    .map(({ name, value }) => ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  return `<${element.localName}${attributes}${isHost ? ` ${HOST_ATTRIBUTE}` : ''}>`;
}

/**
 * The new elements of a parsed content, each with its handle; null when the browser built other
 * elements than the marked ones (an element it made up, one it copied, one it moved across).
 */
function freshElements(
  fragment: Element,
  content: MarkedContent,
  view: ElementView,
  mark: string,
  slot: string,
): Map<HTMLElement, ElementHandle> | null {
  const fresh = new Map<HTMLElement, ElementHandle>();
  const slots = new Set<number>();
  let last = -1;
  for (const element of fragment.querySelectorAll<HTMLElement>('*')) {
    if (element.hasAttribute(slot)) {
      const index = Number(element.getAttribute(slot));
      if (element.parentNode !== fragment || slots.has(index) || !content.slots[index]) return null;
      slots.add(index);
      continue;
    }
    // In document order, which is the draft's pre-order: numbers only grow.
    const number = Number(element.getAttribute(mark) ?? NaN);
    const handle = content.marked.get(number);
    if (!handle || number <= last) return null;
    last = number;
    // Below the top, each one sits in the element the draft puts it in.
    const parent = element.parentNode;
    if (parent !== fragment && fresh.get(parent as HTMLElement) !== view.parentOf(handle))
      return null;
    fresh.set(element, handle);
  }
  return fresh.size === content.marked.size && slots.size === content.slots.length ? fresh : null;
}

/** Whether the fragment's top elements are the draft's children of the parent, in order. */
function sameChildren(
  fragment: Element,
  children: readonly ElementHandle[],
  content: MarkedContent,
  fresh: ReadonlyMap<HTMLElement, ElementHandle>,
  slot: string,
): boolean {
  const top = [...fragment.children];
  return (
    top.length === children.length &&
    top.every((element, i) => {
      const held = element.hasAttribute(slot)
        ? content.slots[Number(element.getAttribute(slot))]
        : fresh.get(element as HTMLElement);
      return held === children[i];
    })
  );
}

/**
 * Makes the host's children the given nodes with as few changes to the page as it takes: what is
 * already in its place stays (an element shown, or text and comments that read the same), the
 * rest is moved or put in, and what is left over goes. A moved section then costs the browser its
 * own style and layout, not its siblings'.
 */
function reconcile(host: Element, next: readonly Node[]): void {
  const kept = new Set(next);
  let current = host.firstChild;
  const drop = () => {
    const after: ChildNode | null = current!.nextSibling;
    current!.remove();
    current = after;
  };
  for (const node of next) {
    // What no longer belongs here goes first, so that what follows it is found in its place.
    while (current && current !== node && !sameLeaf(current, node) && !kept.has(current)) drop();
    if (current && (current === node || sameLeaf(current, node))) current = current.nextSibling;
    else host.insertBefore(node, current);
  }
  while (current) drop();
}

/** Text or comments reading the same. */
function sameLeaf(a: Node, b: Node): boolean {
  return (
    a.nodeType === b.nodeType &&
    (a.nodeType === Node.TEXT_NODE || a.nodeType === Node.COMMENT_NODE) &&
    a.nodeValue === b.nodeValue
  );
}

/** Drops the elements no longer shown (taken out with what they replaced) from the map. */
function forgetRemoved(replaced: readonly Element[], shown: ShownElements): void {
  const { byHandle, byElement } = shown;
  const forget = (element: Element) => {
    const handle = byElement.get(element);
    if (handle && byHandle.get(handle) === element) byHandle.delete(handle);
  };
  for (const element of replaced) {
    if (element.isConnected) continue;
    forget(element);
    for (const inner of element.querySelectorAll('*')) forget(inner);
  }
}
