import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import type { DraftElement } from './element.js';
import type { IndexedPage } from './page.js';
import type { OutlineEntry } from './schema.js';
import { elementClasses, elementId } from './attributes.js';
import { summarize } from './outline-text.js';

/** Read-only: the same entries are handed to every caller of one draft version. */
export type Outline = readonly Readonly<OutlineEntry>[];

/**
 * The outline of the page: one entry per element inside <body>, in pre-order, numbered from 1.
 * Each element keeps its last entry, and an entry is reused while the element's number and text
 * are the same (tag, id and classes never change while an element is in the tree); its text is
 * kept until something below it changes. So a new version allocates entries only from the first
 * changed number on, and re-reads only the text an operation touched.
 */
export function buildOutline(page: IndexedPage): Outline {
  const entries = new Array<Readonly<OutlineEntry>>(page.count);
  const classLists = new ClassLists();
  let node = 0;
  /** Numbers the element on the way down, reads its text on the way up (children first). */
  const visit = (element: DraftElement): void => {
    const number = node++;
    const children = element.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (isTag(child)) visit(child as DraftElement);
    }
    if (element.text === undefined) summarize(element);
    if (number === 0) return;
    const text = element.text!;
    let entry = element.entry;
    if (entry === undefined || entry.node !== number || entry.text !== text) {
      const id = entry ? entry.id : elementId(element);
      const classes = entry ? entry.classes : (classLists.of(element) as string[]);
      entry = element.entry = { node: number, tag: element.name, id, classes, text };
    }
    entries[number - 1] = entry;
  };
  visit(page.body);
  return entries;
}

const noClasses: readonly string[] = Object.freeze([]);

/** One frozen list per distinct class attribute: pages repeat the same few endlessly. */
class ClassLists {
  private readonly known = new Map<string, readonly string[]>();

  of(element: Element): readonly string[] {
    const raw = element.attribs['class'];
    if (raw === undefined) return noClasses;
    let list = this.known.get(raw);
    if (list === undefined) {
      const classes = elementClasses(element);
      list = classes.length === 0 ? noClasses : Object.freeze(classes);
      this.known.set(raw, list);
    }
    return list;
  }
}
