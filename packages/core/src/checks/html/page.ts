import { parseDocument } from 'htmlparser2';
import { isTag, isText, type ChildNode, type Element } from 'domhandler';

export interface Position {
  readonly line: number;
  readonly column: number;
}
/** Where a finding sits in a page: `#id` or `@n` (decisions §3 outline numbering), line, column. */
export interface Place extends Position {
  readonly element?: string;
}

/** An HTML page parsed once and shared by every check that reads it. */
export interface ParsedPage {
  readonly text: string;
  /** Every element of the document in pre-order (document order). */
  readonly elements: readonly Element[];
  /** Text content of an element (its text descendants, joined). */
  textOf(element: Element): string;
  placeOf(element: Element): Place;
  positionAt(offset: number): Position;
}

/** Elements in document order, without recursion (hostile pages nest deeply). */
function preOrder(children: readonly ChildNode[]): Element[] {
  const elements: Element[] = [];
  const stack: ChildNode[] = [...children].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isTag(node)) continue;
    elements.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return elements;
}

/** Offset → 1-based line and column; the line table is built on first use. */
export function positionFinder(text: string): (offset: number) => Position {
  let starts: number[] | undefined;
  return (offset) => {
    if (starts === undefined) {
      starts = [0];
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1))
        starts.push(at + 1);
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

export function parsePage(text: string): ParsedPage {
  const document = parseDocument(text, { withStartIndices: true });
  const elements = preOrder(document.children);
  // Built on first use: most pages have no finding, so most never need them.
  const positionAt = positionFinder(text);
  let references: Map<Element, string> | undefined;

  /** `#id` names the first element with that id; others inside <body> are `@n`, body `@0`. */
  const elementReferences = (): Map<Element, string> => {
    const map = new Map<Element, string>();
    const body = elements.find((e) => e.name === 'body');
    if (body) {
      map.set(body, '@0');
      preOrder(body.children).forEach((element, i) => map.set(element, `@${i + 1}`));
    }
    const seen = new Set<string>();
    for (const element of elements) {
      const id = element.attribs.id;
      if (id === undefined || id === '' || seen.has(id)) continue;
      seen.add(id);
      map.set(element, `#${id}`);
    }
    return map;
  };

  return {
    text,
    elements,
    textOf(element) {
      const parts: string[] = [];
      const stack: ChildNode[] = [...element.children].reverse();
      for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
        if (isText(node)) parts.push(node.data);
        else if (isTag(node))
          for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
      }
      return parts.join('');
    },
    placeOf(element) {
      references ??= elementReferences();
      const ref = references.get(element);
      return {
        ...(ref === undefined ? {} : { element: ref }),
        ...positionAt(element.startIndex ?? 0),
      };
    },
    positionAt,
  };
}
