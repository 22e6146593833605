import { Parser } from 'htmlparser2';
import type { PageReference } from './references.js';
import { PageDataBuilder } from './page-data.js';
import { scanPageData } from './page-scan.js';

export { maxNesting } from './page-data.js';

export interface Position {
  readonly line: number;
  readonly column: number;
}
/** Where a finding sits in a page: `#id` or `@n` (decisions §3 outline numbering), line, column. */
export interface Place extends Position {
  readonly element?: string;
}

/** What the checks need from a page. Elements are named by their index in document order. */
export interface PageFacts {
  /** Nesting passed `maxNesting`: what follows was not read. */
  readonly tooDeep: boolean;
  /** The page's `<title>` (not an inline SVG's); undefined when there is none. */
  readonly title: { readonly node: number; readonly empty: boolean } | undefined;
  /** Elements whose id an earlier element already has. */
  readonly duplicateIds: readonly { readonly node: number; readonly id: string }[];
  readonly references: readonly PageReference[];
  readonly viewport: { readonly node: number; readonly content: string } | undefined;
  /**
   * The first `<base>` with an `href`, which browsers resolve the page's relative URLs against
   * (anywhere in the page, as the HTML standard has it; an SVG's `<base>` too, to be safe).
   */
  readonly base: { readonly node: number; readonly href: string } | undefined;
  /** The place of an element, or of a spot inside it (`offset` into the page's text). */
  placeOf(node: number, offset?: number): Place;
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

/**
 * What one read of a page learns, as plain data. `pageFacts` makes the checks' PageFacts of it.
 */
export interface PageData extends Omit<PageFacts, 'placeOf'> {
  /** Where each element starts in the page's text, by element number. */
  readonly starts: readonly number[];
  /** The elements named by their id (`#id`): the first element with each id. */
  readonly named: ReadonlyMap<number, string>;
  /** `<body>`'s element and its last descendant (Infinity while it was never closed). */
  readonly body: { readonly node: number; readonly last: number } | undefined;
}

/**
 * Reads a page in one streaming pass, building no DOM: a folder has many pages, and the DOMs
 * would cost more to build and collect than the checks need. Each element opened is one element
 * of the DOM htmlparser2 would build, in document order, so element `n` here is element `n` of
 * the editing outline (decisions §3: `@n` counts from `<body>`, `#id` is the first element with
 * that id). Most pages are read by the scanner of page-scan.ts, several times faster than
 * htmlparser2's Parser on a cold start and reporting exactly its events; a page using markup the
 * scanner leaves alone (inline SVG or MathML, CDATA, `<plaintext>`, an unfinished tag at its
 * end) is read by the Parser itself.
 */
export function readPageData(text: string): PageData {
  return scanPageData(text) ?? parsePageData(text);
}

/** `readPageData` by htmlparser2's Parser. */
export function parsePageData(text: string): PageData {
  const page = new PageDataBuilder();
  const parser: Parser = new Parser({
    onopentag(name, attribs) {
      // Past the deepest nesting, no further events: the rest of the page is not read.
      if (!page.openElement(name, attribs, parser.startIndex)) parser.pause();
    },
    ontext(data) {
      page.text(data, parser.startIndex);
    },
    onclosetag(name) {
      page.closeElement(name);
    },
  });
  parser.end(text);
  return page.data();
}

/**
 * The checks' facts of a page read by `readPageData`. Its text is asked for only to place a
 * finding (line and column), which few pages need: read elsewhere, a page need not be decoded.
 */
export function pageFacts(data: PageData, text: () => string): PageFacts {
  const { starts, named, body } = data;
  let positionAt: ((offset: number) => Position) | undefined;
  return {
    tooDeep: data.tooDeep,
    title: data.title,
    duplicateIds: data.duplicateIds,
    references: data.references,
    viewport: data.viewport,
    base: data.base,
    placeOf(node, offset) {
      const id = named.get(node);
      let name: string | undefined;
      if (id !== undefined) name = `#${id}`;
      else if (body !== undefined && node >= body.node && node <= body.last)
        name = `@${node - body.node}`;
      positionAt ??= positionFinder(text());
      const position = positionAt(offset ?? starts[node] ?? 0);
      return { ...(name === undefined ? {} : { element: name }), ...position };
    },
  };
}

/** Reads a page for the checks (see `readPageData`). */
export function readPage(text: string): PageFacts {
  return pageFacts(readPageData(text), () => text);
}
