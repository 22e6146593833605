import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import { isInside, nextElementInOrder } from './dom.js';
import type { DraftElement } from './element.js';
import type { IndexedPage } from './page.js';
import type { OutlineEntry } from './schema.js';
import { elementClasses, elementId } from './attributes.js';
import { summarize } from './outline-text.js';

/** Read-only: the same entries are handed to every caller of one draft version. */
export type Outline = readonly Readonly<OutlineEntry>[];

/**
 * The outline of the page: one entry per element inside <body>, in pre-order, numbered from 1.
 *
 * Built on the previous version's outline when there is one: entries before the first number an
 * operation changed are taken over (only the texts it invalidated are read again), and from there
 * on each element's last entry is reused while its number and text are the same (tag, id and
 * classes never change while an element is in the tree).
 */
export function buildOutline(page: IndexedPage, previous: Outline | undefined): Outline {
  const { from, texts } = page.takeChanges();
  const count = page.count;
  const start = previous ? Math.min(from, previous.length + 1, count + 1) : 1;
  const entries = previous ? previous.slice(0, start - 1) : [];
  entries.length = count;
  const classLists = new ClassLists();
  for (const element of texts) {
    if (element === page.body || !isInside(element, page.body)) continue;
    const number = page.numberOf(element);
    if (number >= start) continue;
    ensureText(element);
    entries[number - 1] = entryFor(element, number, classLists);
  }
  let number = start;
  let element: Element | null | undefined = page.elementAt(start);
  for (; element; element = nextElementInOrder(element, page.body)) {
    const draftElement = element as DraftElement;
    ensureText(draftElement);
    entries[number - 1] = entryFor(draftElement, number, classLists);
    number += 1;
  }
  return entries;
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

function entryFor(
  element: DraftElement,
  node: number,
  classLists: ClassLists,
): Readonly<OutlineEntry> {
  const text = element.text!;
  const last = element.entry;
  if (last !== undefined && last.node === node && last.text === text) return last;
  const id = last ? last.id : elementId(element);
  const classes = last ? last.classes : (classLists.of(element) as string[]);
  return (element.entry = { node, tag: element.name, id, classes, text });
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
