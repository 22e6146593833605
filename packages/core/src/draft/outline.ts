import type { IndexedPage } from './page.js';
import type { OutlineEntry } from './schema.js';
import { elementClasses, elementId, outlineText } from './text.js';

/** Read-only: the same entries are handed to every caller of one draft version. */
export type Outline = readonly Readonly<OutlineEntry>[];

/**
 * The outline of the page: one entry per element inside <body>, in pre-order, numbered from 1.
 * An element's id and classes never change while it is in the tree, and its text is kept in its
 * slot until something below it changes, so a new version re-reads only what an operation touched.
 */
export function buildOutline(page: IndexedPage): Outline {
  const entries = new Array<Readonly<OutlineEntry>>(page.count);
  page.forEachSlot((slot, node) => {
    const element = slot.element;
    const facts = (slot.facts ??= {
      id: elementId(element),
      classes: Object.freeze(elementClasses(element)),
    });
    const text = (slot.text ??= outlineText(element));
    entries[node - 1] = {
      node,
      tag: element.name,
      id: facts.id,
      classes: facts.classes as string[],
      text,
    };
  });
  return entries;
}
