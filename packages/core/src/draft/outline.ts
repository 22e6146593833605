import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import { elementClasses, elementId } from './attributes.js';
import { isInside, nextElementAfter } from './dom.js';
import type { DraftElement } from './element.js';
import { summarize } from './outline-text.js';
import type { IndexedPage } from './page.js';
import type { OutlineEntry } from './schema.js';

/** Read-only: the same entries are handed to every caller of one draft version. */
export type Outline = readonly Readonly<OutlineEntry>[];

const noClasses: readonly string[] = Object.freeze([]);
/** Holds an element's place in the entries until its text is known (never handed out). */
const placeholder: Readonly<OutlineEntry> = Object.freeze({
  node: 0,
  tag: '',
  id: null,
  classes: [],
  text: '',
});

/**
 * Builds the outline of a page: one entry per element inside <body>, in pre-order, numbered from
 * 1. Each version is built on the previous one: entries before the first number an operation
 * changed are taken over (only the texts it invalidated are read again), and from there on each
 * element's last entry is reused while its number and text are the same. Texts are kept in the
 * elements until something below them changes.
 */
export class OutlineBuilder {
  private previous: Outline | undefined;
  /** One frozen list per distinct class attribute, so equal lists are the same object. */
  private readonly classLists = new Map<string, readonly string[]>();

  constructor(private readonly page: IndexedPage) {}

  build(): Outline {
    const { page, previous } = this;
    const { from, texts } = page.takeChanges();
    const start = previous ? Math.min(from, previous.length + 1, page.count + 1) : 1;
    // Filled in order (slice, then push) so the array stays packed, never sparse.
    const entries = previous ? previous.slice(0, start - 1) : [];
    for (const element of texts) {
      if (element === page.body || !isInside(element, page.body)) continue;
      const number = page.numberOf(element);
      if (number >= start) continue;
      ensureText(element);
      entries[number - 1] = this.entryFor(element, number);
    }
    // From `start` on in pre-order: each element's subtree, then the element after that subtree.
    const walk: Walk = { entries, number: start, builder: this };
    let element: Element | null | undefined = page.elementAt(start);
    for (; element; element = nextElementAfter(element, page.body)) {
      visit(element as DraftElement, walk);
    }
    return (this.previous = entries);
  }

  /**
   * The element's entry: its last one while its number and text stay the same (tag, id and
   * classes never change while an element is in the tree, so a new entry copies them from it).
   */
  entryFor(element: DraftElement, node: number): Readonly<OutlineEntry> {
    const text = element.text!;
    const last = element.entry;
    if (last !== undefined && last.node === node && last.text === text) return last;
    const id = last ? last.id : elementId(element);
    const classes = last ? last.classes : (this.classesOf(element) as string[]);
    return (element.entry = { node, tag: element.name, id, classes, text });
  }

  private classesOf(element: Element): readonly string[] {
    const raw = element.attribs['class'];
    if (raw === undefined) return noClasses;
    let list = this.classLists.get(raw);
    if (list === undefined) {
      const classes = elementClasses(element);
      list = classes.length === 0 ? noClasses : Object.freeze(classes);
      this.classLists.set(raw, list);
    }
    return list;
  }
}

interface Walk {
  entries: Array<Readonly<OutlineEntry>>;
  /** The number of the next element visited. */
  number: number;
  builder: OutlineBuilder;
}

/**
 * Adds the entries of `element` and its subtree in one walk: the element's slot is taken on the
 * way down and filled on the way up, once its children's texts are known and its own can be
 * folded from them. A plain function over an explicit state: a closure kept `number` in a
 * context object, a visible cost over 30,000 elements.
 */
function visit(element: DraftElement, walk: Walk): void {
  const entries = walk.entries;
  const slot = entries.length;
  const own = walk.number++;
  entries.push(placeholder);
  const children = element.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (isTag(child)) visit(child as DraftElement, walk);
  }
  if (element.text === undefined) summarize(element);
  entries[slot] = walk.builder.entryFor(element, own);
}

/** Reads the texts below `element` that are not known, then its own (children first). */
function ensureText(element: DraftElement): void {
  if (element.text !== undefined) return;
  const children = element.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (isTag(child)) ensureText(child as DraftElement);
  }
  summarize(element);
}

/** The depth below `body` of every element inside it (0 for its children), in pre-order. */
export function depthsBelow(body: Element): readonly number[] {
  const depths: number[] = [];
  const visit = (parent: Element, depth: number): void => {
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!isTag(child)) continue;
      depths.push(depth);
      visit(child, depth + 1);
    }
  };
  visit(body, 0);
  return Object.freeze(depths);
}
