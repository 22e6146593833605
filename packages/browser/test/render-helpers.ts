// Renders a Preact tree to HTML (no DOM needed) and reads it back with the draft engine's own
// parser, so tests ask for elements by tag, class and attribute and read their text.
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Draft } from '@galley/core';
import { open } from './reapply-helpers.js';

export interface RenderedElement {
  readonly tag: string;
  readonly classes: readonly string[];
  /** The text content, white space collapsed (the outline's text, up to 80 characters). */
  readonly text: string;
  attribute(name: string): string | undefined;
  /** Elements inside this one, in document order. */
  all(test: Test): RenderedElement[];
  one(test: Test): RenderedElement;
}

/** A tag name, `.class`, `tag.class`, or `[attribute]` / `[attribute=value]`. */
type Test = string;

export interface Rendered extends RenderedElement {
  readonly html: string;
}

export function render<P>(tree: VNode<P>): Rendered {
  const html = renderToString(tree as VNode);
  const draft = open(
    `<!doctype html><html><head><title>t</title></head><body>${html}</body></html>`,
  );
  return Object.assign(elementAt(draft, 0), { html });
}

function elementAt(draft: Draft, number: number): RenderedElement {
  const entry = number === 0 ? undefined : draft.outline()[number - 1]!;
  const handle = draft.elements.at(number)!;
  const attributes = new Map(draft.elements.attributesOf(handle));
  const inside = (): number[] => {
    const depths = draft.outlineDepths();
    const depth = number === 0 ? -1 : depths[number - 1]!;
    const numbers: number[] = [];
    for (let n = number + 1; n <= depths.length && depths[n - 1]! > depth; n++) numbers.push(n);
    return numbers;
  };
  const self: RenderedElement = {
    tag: entry?.tag ?? 'body',
    classes: entry?.classes ?? [],
    text: entry?.text ?? '',
    attribute: (name) => attributes.get(name),
    all: (test) =>
      inside()
        .map((n) => elementAt(draft, n))
        .filter((e) => matches(e, test)),
    one(test) {
      const found = self.all(test);
      if (found.length !== 1) throw new Error(`${found.length} elements match ${test}`);
      return found[0]!;
    },
  };
  return self;
}

function matches(element: RenderedElement, test: Test): boolean {
  const attribute = /^\[([^=\]]+)(?:=([^\]]*))?\]$/.exec(test);
  if (attribute) {
    const value = element.attribute(attribute[1]!);
    return attribute[2] === undefined ? value !== undefined : value === attribute[2];
  }
  const [tag, ...classes] = test.split('.');
  return (!tag || element.tag === tag) && classes.every((c) => element.classes.includes(c));
}
