import type { ChildNode, Element } from 'domhandler';
import { forEachElement, isElement, isInside } from './dom.js';
import { contentModel, serializeHtml } from './html.js';
import type { IndexedPage } from './page.js';

/**
 * An element of a draft, held across changes: an operation, an undo or a redo moves it or takes it
 * out, but never turns it into another element, so a selection kept as a handle cannot come to
 * mean a different element the way a number (`@n`) or an id shared by two elements can.
 */
declare const elementHandle: unique symbol;
export interface ElementHandle {
  readonly [elementHandle]: true;
}

const handleOf = (element: Element) => element as unknown as ElementHandle;
const elementOf = (handle: ElementHandle) => handle as unknown as Element;

/** The attribute a preview marks each element with: its index in `PreviewBody.elements`. */
export const PREVIEW_ATTRIBUTE = 'data-galley-n';

export interface MarkedHtml {
  /** The HTML, each element inside <body> marked with `data-galley-n="<its outline number>"`. */
  readonly html: string;
  /** The element each number stands for in this version (index 0 is <body>). */
  readonly elements: readonly ElementHandle[];
  /** The number of each element's parent (index 0, <body>, has -1). */
  readonly parents: readonly number[];
}

/** The attribute a redrawn part marks an element already shown with (see `markedContent`). */
export const PREVIEW_SLOT_ATTRIBUTE = 'data-galley-slot';

/** What changed since a view's mark: elements whose children changed, and where numbers moved. */
export interface ElementChanges {
  /** Elements whose children changed (some may be out of the page by now). */
  readonly parents: readonly ElementHandle[];
  /** Elements numbered below this kept their numbers (Infinity: none came or went). */
  readonly from: number;
}

/** One element's content marked for a preview that already shows some of its children. */
export interface MarkedContent {
  /**
   * The content's HTML: each child already shown stands as an empty
   * `<template data-galley-slot="k">` (k: its index in `slots`), every other element is marked by
   * its number as in `marked`.
   */
  readonly html: string;
  /** The children the preview already shows, in their order in the content. */
  readonly slots: readonly ElementHandle[];
  /** The marked elements: number → handle (the numbers they carry in `html`). */
  readonly marked: ReadonlyMap<number, ElementHandle>;
}

/** Reads and serializes single elements of a page, for a screen that shows and edits it. */
export class ElementView {
  constructor(private readonly page: IndexedPage) {}

  at(number: number): ElementHandle | undefined {
    const element = this.page.elementAt(number);
    return element ? handleOf(element) : undefined;
  }

  /** The handle's outline number in the page as it is now; null once it is out of the page. */
  numberOf(handle: ElementHandle): number | null {
    const element = elementOf(handle);
    if (element === this.page.body) return 0;
    return isInside(element.parent, this.page.body) ? this.page.numberOf(element) : null;
  }

  /** The element holding it: null for <body> and for an element out of the page. */
  parentOf(handle: ElementHandle): ElementHandle | null {
    const element = elementOf(handle);
    if (element === this.page.body || this.numberOf(handle) === null) return null;
    return handleOf(element.parent as Element);
  }

  /** The nearest element before it among its siblings (text between them skipped). */
  previousOf(handle: ElementHandle): ElementHandle | null {
    for (let node = elementOf(handle).prev; node; node = node.prev)
      if (isElement(node)) return handleOf(node);
    return null;
  }

  /** The nearest element after it among its siblings. */
  nextOf(handle: ElementHandle): ElementHandle | null {
    for (let node = elementOf(handle).next; node; node = node.next)
      if (isElement(node)) return handleOf(node);
    return null;
  }

  /** Its child elements, in their order. */
  childrenOf(handle: ElementHandle): ElementHandle[] {
    return elementOf(handle).children.filter(isElement).map(handleOf);
  }

  /** Whether elements may be inserted into it (not a void element, nor raw text like <script>). */
  canHoldElements(handle: ElementHandle): boolean {
    const kind = contentModel(elementOf(handle), this.page.body).kind;
    return kind === 'html' || kind === 'svg' || kind === 'math';
  }

  /** Whether it holds text only (no child elements): the content a person edits in place. */
  holdsTextOnly(handle: ElementHandle): boolean {
    return !elementOf(handle).children.some(isElement);
  }

  tagOf(handle: ElementHandle): string {
    return elementOf(handle).name;
  }

  /** The attributes as written in the page (entities undecoded), in their order. */
  attributesOf(handle: ElementHandle): readonly (readonly [string, string])[] {
    return Object.entries(elementOf(handle).attribs);
  }

  outerHtml(handle: ElementHandle): string {
    return serializeHtml(elementOf(handle));
  }

  /**
   * The element's HTML with attributes changed: a value is set as written (raw), null removes
   * the attribute; the others keep their place and spelling. The page itself is not changed.
   */
  outerHtmlWith(handle: ElementHandle, changes: Readonly<Record<string, string | null>>): string {
    const element = elementOf(handle);
    const kept = element.attribs;
    const next: Record<string, string> = { ...kept };
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) delete next[name];
      else next[name] = value;
    }
    element.attribs = next;
    try {
      return serializeHtml(element);
    } finally {
      element.attribs = kept;
    }
  }

  /** A mark to ask `changesSince` with later. */
  get changeMark(): number {
    return this.page.changeMark;
  }

  /** What changed since `mark`; null when too much did to be told (then draw it all anew). */
  changesSince(mark: number): ElementChanges | null {
    const changes = this.page.changesSince(mark);
    return changes && { parents: changes.parents.map(handleOf), from: changes.from };
  }

  /** Every element in number order: index 0 is <body>, index n is `@n`. */
  inOrder(): ElementHandle[] {
    return this.numbered().elements;
  }

  /** Every element in number order, with the number of each one's parent (<body>'s is -1). */
  private numbered(): Pick<MarkedHtml, 'elements' | 'parents'> & { elements: ElementHandle[] } {
    const elements: ElementHandle[] = [handleOf(this.page.body)];
    const parents = [-1];
    const walk = (nodes: readonly ChildNode[], parent: number) => {
      for (const node of nodes) {
        if (!isElement(node)) continue;
        const number = elements.length;
        elements.push(handleOf(node));
        parents.push(parent);
        walk(node.children, number);
      }
    };
    walk(this.page.body.children, 0);
    return { elements, parents };
  }

  /**
   * The content of `parent` for a preview to draw in place of what it shows: the children it
   * already shows (`shown`) as placeholders to put back, the others as marked HTML.
   */
  markedContent(parent: ElementHandle, shown: (child: ElementHandle) => boolean): MarkedContent {
    const slots: ElementHandle[] = [];
    const fresh: Element[] = [];
    const parts = elementOf(parent).children.map((node: ChildNode) => {
      if (!isElement(node)) return () => serializeHtml(node);
      if (shown(handleOf(node))) {
        const slot = `<template ${PREVIEW_SLOT_ATTRIBUTE}="${slots.length}"></template>`;
        slots.push(handleOf(node));
        return () => slot;
      }
      fresh.push(node);
      return () => serializeHtml(node);
    });
    const marked = new Map<number, ElementHandle>();
    const numbered: Element[] = [];
    for (const element of fresh) {
      let number = this.page.numberOf(element);
      forEachElement([element], (inner) => {
        marked.set(number++, handleOf(inner));
        numbered.push(inner);
      });
    }
    const html = withMarks(numbered, [...marked.keys()], () =>
      parts.map((part) => part()).join(''),
    );
    return { html, slots, marked };
  }

  /**
   * The page (`document`) or the body's content (`body`) with every element inside <body> marked
   * by its number, so that a browser that builds its own DOM from it (and may move elements, as
   * it does with misplaced table content) still tells which element of the draft each of its
   * elements is. The page is left as it was.
   */
  marked(scope: 'document' | 'body'): MarkedHtml {
    const { elements, parents } = this.numbered();
    const inside = elements.slice(1).map(elementOf);
    const html = withMarks(
      inside,
      inside.map((_, i) => i + 1),
      () => serializeHtml(scope === 'body' ? this.page.body.children : this.page.document),
    );
    return { html, elements, parents };
  }
}

/** Serializes with each element marked by its number, leaving the page as it was. */
function withMarks(
  elements: readonly Element[],
  numbers: readonly number[],
  serialize: () => string,
) {
  // Attribute objects may be shared and frozen (see element.ts): each element gets a marked
  // copy for the serialization, and its own object back after it.
  const kept = elements.map((element, i) => {
    const attribs = element.attribs;
    element.attribs = { ...attribs, [PREVIEW_ATTRIBUTE]: String(numbers[i]) };
    return attribs;
  });
  try {
    return serialize();
  } finally {
    elements.forEach((element, i) => (element.attribs = kept[i]!));
  }
}
