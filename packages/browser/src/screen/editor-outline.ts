import type { Outline, OutlineEntry, Violation } from '@galley/core';
import { fill, h } from './dom.js';

/** The reference a form should use for an entry: its id when it has one, else `@n`. */
export function referenceOf(entry: OutlineEntry): string {
  return entry.id === null ? `@${entry.node}` : `#${entry.id}`;
}

/** Which outline entry a violation's `element` (`#id` or `@n`) names, if any. */
export function entryOf(outline: Outline, element: string | undefined): OutlineEntry | undefined {
  if (!element) return undefined;
  if (element.startsWith('#')) return outline.find((e) => e.id === element.slice(1));
  const node = Number(element.slice(1));
  return outline.find((e) => e.node === node);
}

export interface OutlineOptions {
  readonly outline: Outline;
  /**
   * Each entry's depth below <body>, from the draft engine (`outlineDepths()`): the page is never
   * parsed by this document, so nothing of it (inline styles, event handlers) meets the screen's
   * policy. When the lengths disagree the outline is shown flat.
   */
  readonly depths: readonly number[];
  /** Violations of this page, shown under the element they name. */
  readonly problems: readonly Violation[];
  readonly selected: number | null;
  onSelect(entry: OutlineEntry): void;
}

/** The outline as nested lists of buttons (keyboard reachable), problems under their element. */
export function renderOutline(container: HTMLElement, options: OutlineOptions): void {
  const { outline, problems, selected } = options;
  const depths = options.depths.length === outline.length ? options.depths : null;
  const root = h('ul', { class: 'outline', 'aria-label': 'Elements of the page' });
  const stack: HTMLElement[] = [root];
  const atEntry = new Map<number, Violation[]>();
  for (const v of problems) {
    const entry = entryOf(outline, v.element);
    if (entry) atEntry.set(entry.node, [...(atEntry.get(entry.node) ?? []), v]);
  }
  outline.forEach((entry, i) => {
    const depth = depths?.[i] ?? 0;
    while (stack.length > depth + 1) stack.pop();
    let parent = stack[stack.length - 1]!;
    while (stack.length < depth + 1) {
      const nested = h('ul', {});
      (parent.lastElementChild ?? parent).append(nested);
      stack.push(nested);
      parent = nested;
    }
    const found = atEntry.get(entry.node) ?? [];
    const button = h(
      'button',
      {
        type: 'button',
        'data-node': entry.node,
        'aria-pressed': entry.node === selected ? 'true' : 'false',
      },
      h('span', { class: 'ref' }, `@${entry.node} `),
      h('span', { class: 'tag' }, `<${entry.tag}>`),
      entry.id === null ? '' : h('span', { class: 'id' }, ` #${entry.id}`),
      entry.classes.length ? h('span', { class: 'classes' }, ` .${entry.classes.join('.')}`) : '',
      entry.text ? h('span', { class: 'text' }, ` ${entry.text}`) : '',
    );
    button.addEventListener('click', () => options.onSelect(entry));
    const item = h(
      'li',
      { class: found.length ? 'has-problem' : false, id: `outline-node-${entry.node}` },
      button,
      found.length
        ? h(
            'ul',
            { class: 'problems', 'aria-label': `Problems at @${entry.node}` },
            found.map((v) => h('li', {}, h('code', {}, v.code), `: ${v.message}`)),
          )
        : '',
    );
    parent.append(item);
  });
  fill(container, outline.length ? root : h('p', {}, 'The body has no elements yet.'));
}
